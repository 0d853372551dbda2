"""Before any trial or flow run starts: does the configured model endpoint answer, with this key, for every
variant's model (and every model a scanner asks, the judge's)? One request to ``GET {base_url}/models``, no
retries, a short timeout; a problem becomes one line naming the experiment file, the field (``model.base_url``,
``model.api_key_env``, ``variants[i].model``, ``scanners[i].settings.model``) and the URL tried, instead of a long
traceback after a Failed flow run.
"""

from __future__ import annotations

from pathlib import Path

import httpx

from nightshift.experiment.config import Experiment, ExperimentError
from nightshift.flows.endpoint import api_key
from nightshift.protocols.upstream import ANTHROPIC_VERSION

TIMEOUT_S = 5.0


def check_endpoint(exp: Experiment, path: Path) -> None:
    """Raise ExperimentError (one line) when the real endpoint cannot serve the run; the simulator is not checked."""
    if not exp.model.base_url:
        return

    key = api_key(exp)
    if not key:
        raise ExperimentError(f"{path}: field 'model.api_key_env': environment variable {exp.model.api_key_env} "
                              "is not set (and no 'model.api_key_secret' names a Prefect Secret block); export it "
                              "with the endpoint's API key")
    url = exp.model.base_url.rstrip("/") + "/models"
    try:
        headers = ({"x-api-key": key, "anthropic-version": ANTHROPIC_VERSION} if exp.model.protocol == "anthropic"
                   else {"Authorization": f"Bearer {key}"})
        reply = httpx.get(url, headers=headers, timeout=TIMEOUT_S)
    except httpx.HTTPError as exc:
        raise ExperimentError(f"{path}: field 'model.base_url': nothing answers at {url} "
                              f"({type(exc).__name__}: {exc}); check the host, port and path (…/v1)") from None
    if reply.status_code in (401, 403):
        raise ExperimentError(f"{path}: field 'model.api_key_env': {url} refused the key in "
                              f"{exp.model.api_key_env} ({reply.status_code}); export a valid key")
    if reply.status_code != 200:
        raise ExperimentError(f"{path}: field 'model.base_url': {url} answered {reply.status_code}; is it an "
                              "OpenAI-compatible endpoint (base URL ending in /v1)?")
    try:
        served = {m["id"] for m in reply.json().get("data", [])}
    except (ValueError, KeyError, TypeError, AttributeError):
        raise ExperimentError(f"{path}: field 'model.base_url': {url} did not answer with a model list; is it "
                              "an OpenAI-compatible endpoint (base URL ending in /v1)?") from None
    for index, variant in enumerate(exp.variants):
        if variant.model not in served:
            raise ExperimentError(f"{path}: field 'variants[{index}].model': {variant.model!r} (variant "
                                  f"{variant.name!r}) is not served by {url}; it lists {sorted(served)[:10]}")
    for index, entry in enumerate(exp.scanners or []):  # a scanner that asks a model (the judge) names one too
        model = entry.settings.get("model") if isinstance(entry.settings, dict) else None
        if isinstance(model, str) and model not in served:
            raise ExperimentError(f"{path}: field 'scanners[{index}].settings.model': {model!r} (scanner "
                                  f"{entry.use!r}) is not served by {url}; it lists {sorted(served)[:10]}")
