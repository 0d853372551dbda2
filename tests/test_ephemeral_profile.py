"""`nightshift run --ephemeral` uses Prefect's temporary server even when the active profile points at a server
(`nightshift serve` writes one) and even when Prefect was imported before the switch (CI once failed: a hoisted
import in the CLI's parser loaded the serve profile first, and the run went to a stopped server)."""

import subprocess
import sys
import textwrap


def _settings_after_switch(tmp_path, import_prefect_first: bool) -> str:
    profiles = tmp_path / "profiles.toml"
    profiles.write_text('active = "served"\n\n[profiles.served]\nPREFECT_API_URL = "http://127.0.0.1:9/api"\n')
    script = textwrap.dedent(f"""
        import os
        os.environ["PREFECT_PROFILES_PATH"] = {str(profiles)!r}
        os.environ["NIGHTSHIFT_HOME"] = {str(tmp_path / "home")!r}
        if {import_prefect_first}:
            import prefect.context  # noqa: F401
        from nightshift.cli.run import _ephemeral_profile
        _ephemeral_profile()
        from prefect.settings import get_current_settings
        s = get_current_settings()
        print(s.api.url, s.server.ephemeral.enabled, s.server.ephemeral.startup_timeout_seconds)
    """)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_the_served_profile_is_what_prefect_reads_without_the_switch(tmp_path):
    # the positive control: the profile file is honoured, so the switch below has something to override
    profiles = tmp_path / "profiles.toml"
    profiles.write_text('active = "served"\n\n[profiles.served]\nPREFECT_API_URL = "http://127.0.0.1:9/api"\n')
    out = subprocess.run([sys.executable, "-c", "from prefect.settings import get_current_settings as g; "
                          "print(g().api.url)"], capture_output=True, text=True, timeout=120,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PREFECT_PROFILES_PATH": str(profiles)})
    assert out.stdout.strip() == "http://127.0.0.1:9/api", out.stderr


def test_ephemeral_switch_before_prefect_is_imported(tmp_path):
    assert _settings_after_switch(tmp_path, import_prefect_first=False) == "None True 120"


def test_ephemeral_switch_after_prefect_is_imported(tmp_path):
    assert _settings_after_switch(tmp_path, import_prefect_first=True) == "None True 120"


def test_building_the_cli_parser_does_not_import_prefect():
    out = subprocess.run([sys.executable, "-c", "import sys; from nightshift.cli.main import build_parser; "
                          "build_parser(); print('prefect' in sys.modules)"], capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip() == "False", out.stderr


def test_the_project_server_started_after_prefect_was_imported_is_the_one_flows_use(tmp_path):
    """`nightshift run` starts (or finds) the project's server after Prefect is imported; the flow's client must
    use it, not Prefect's temporary server (a CI run timed out starting one while the UI link named 4200)."""
    script = textwrap.dedent("""
        from nightshift.deployments.server import point_prefect_at  # imports Prefect, which reads its settings
        point_prefect_at("http://127.0.0.1:9/api")
        from prefect.client.orchestration import get_client
        print(get_client().api_url)
    """)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PREFECT_SERVER_ALLOW_EPHEMERAL_MODE": "true"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().rstrip("/") == "http://127.0.0.1:9/api", out.stdout + out.stderr
