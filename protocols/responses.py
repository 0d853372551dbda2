"""OpenAI Responses (``/v1/responses``, as Codex CLI speaks it) to and from Chat Completions.

Request: ``instructions`` becomes the system message; ``input`` (a string, or items: messages,
``function_call``, ``function_call_output``; ``reasoning`` items are dropped) becomes the conversation;
function tools, ``tool_choice``, ``max_output_tokens``, sampling settings and ``text.format`` map onto their
chat fields. ``previous_response_id`` continues a conversation this proxy answered (kept in memory per trial;
``instructions`` are not carried over, as the API documents). Hosted tools (web_search, file_search,
code_interpreter, computer use, image generation, remote MCP) are refused: the provider would run them.
Reply: one ``message`` item with the text and one ``function_call`` item per tool call; streamed as the typed
events (response.created ... response.completed), each with its ``sequence_number``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from nightshift.protocols.base import (
    ProviderToolRefused,
    Unexpressible,
    WireProtocol,
    choice_of,
    chunks,
    new_id,
    sse,
    text_of,
    usage_of,
)

HOSTED_TOOLS = ("web_search", "file_search", "code_interpreter", "computer", "image_generation", "mcp")
HOSTED_ITEMS = ("web_search_call", "file_search_call", "code_interpreter_call", "computer_call",
                "computer_call_output", "image_generation_call", "mcp_call", "mcp_list_tools",
                "mcp_approval_request", "mcp_approval_response")
UNSUPPORTED_FIELDS = {"background": "background responses", "prompt": "stored prompt templates",
                      "conversation": "stored conversations"}
TEXT_PARTS = ("input_text", "output_text", "text", "refusal")
SAMPLING = ("temperature", "top_p", "parallel_tool_calls", "seed", "user", "top_logprobs")


def _hosted(kind: object) -> bool:
    return isinstance(kind, str) and kind.startswith(HOSTED_TOOLS)


def _tools(tools: object) -> list[dict[str, Any]]:
    if tools is None:
        return []
    if not isinstance(tools, list):
        raise Unexpressible("'tools' must be an array", "tools")
    hosted = [str(t.get("type")) for t in tools if isinstance(t, dict) and _hosted(t.get("type"))]
    if hosted:
        raise ProviderToolRefused(hosted, "tools")
    out = []
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(tool.get("name"), str):
            kind = tool.get("type") if isinstance(tool, dict) else type(tool).__name__
            raise Unexpressible(f"'tools[{index}]' is a {kind!r} tool; only function tools (type 'function' with "
                                f"a name) can be forwarded to this night's endpoint", f"tools[{index}]")
        function = {"name": tool["name"], "parameters": tool.get("parameters") or {"type": "object",
                                                                                    "properties": {}}}
        if tool.get("description"):
            function["description"] = tool["description"]
        if tool.get("strict") is not None:
            function["strict"] = tool["strict"]
        out.append({"type": "function", "function": function})
    return out


def _tool_choice(choice: object) -> object:
    if choice is None or isinstance(choice, str):
        return choice
    if isinstance(choice, dict) and choice.get("type") == "function" and isinstance(choice.get("name"), str):
        return {"type": "function", "function": {"name": choice["name"]}}
    if isinstance(choice, dict) and _hosted(choice.get("type")):
        raise ProviderToolRefused([str(choice["type"])], "tool_choice")
    raise Unexpressible(f"tool_choice {choice!r} cannot be forwarded; use 'auto', 'none', 'required' or "
                        f"{{'type': 'function', 'name': ...}}", "tool_choice")


def _message(item: dict[str, Any], field: str) -> dict[str, Any]:
    role = item.get("role")
    if role not in ("user", "assistant", "system", "developer"):
        raise Unexpressible(f"'{field}.role' must be user, assistant, system or developer, not {role!r}",
                            f"{field}.role")
    content = item.get("content")
    if role == "user" and isinstance(content, list) and any(
            isinstance(p, dict) and p.get("type") == "input_image" for p in content):
        parts: list[dict[str, Any]] = []
        for index, part in enumerate(content):
            if isinstance(part, dict) and part.get("type") == "input_image" and isinstance(part.get("image_url"), str):
                parts.append({"type": "image_url", "image_url": {"url": part["image_url"],
                                                                 "detail": part.get("detail") or "auto"}})
            else:
                parts.append({"type": "text", "text": text_of([part], f"{field}.content[{index}]", TEXT_PARTS)})
        return {"role": "user", "content": parts}
    # developer instructions are a system message to an endpoint that may not know the newer role
    return {"role": "system" if role == "developer" else role,
            "content": text_of(content, f"{field}.content", TEXT_PARTS)}


def _conversation(items: object) -> list[dict[str, Any]]:
    if isinstance(items, str):
        return [{"role": "user", "content": items}]
    if not isinstance(items, list):
        raise Unexpressible("'input' must be a string or an array of input items", "input")
    messages: list[dict[str, Any]] = []
    for index, item in enumerate(items):
        field = f"input[{index}]"
        kind = item.get("type", "message") if isinstance(item, dict) else None
        if not isinstance(item, dict):
            raise Unexpressible(f"'{field}' must be an object", field)
        if kind in HOSTED_ITEMS:
            raise ProviderToolRefused([str(kind)], field)
        if kind == "message":
            messages.append(_message(item, field))
        elif kind == "function_call":
            call = {"id": item.get("call_id"), "type": "function",
                    "function": {"name": item.get("name"), "arguments": item.get("arguments") or "{}"}}
            last = messages[-1] if messages else None
            if last is not None and last["role"] == "assistant":  # the calls of one turn: one assistant message
                last.setdefault("tool_calls", []).append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif kind == "function_call_output":
            output = item.get("output")
            messages.append({"role": "tool", "tool_call_id": item.get("call_id"),
                             "content": text_of(output, f"{field}.output", TEXT_PARTS)})
        elif kind == "reasoning":
            continue  # the endpoint produces none and reads none
        else:
            raise Unexpressible(f"'{field}' is a {kind!r} item, which cannot be forwarded to this night's endpoint "
                                f"(messages, function_call and function_call_output items can)", field)
    return messages


def _response_format(text: object) -> dict[str, Any] | None:
    fmt = text.get("format") if isinstance(text, dict) else None
    if not isinstance(fmt, dict) or fmt.get("type") in (None, "text"):
        return None
    if fmt.get("type") == "json_object":
        return {"type": "json_object"}
    if fmt.get("type") == "json_schema":
        schema = {k: fmt[k] for k in ("name", "schema", "strict", "description") if k in fmt}
        return {"type": "json_schema", "json_schema": schema}
    raise Unexpressible(f"text.format {fmt.get('type')!r} cannot be forwarded", "text.format")


class ResponsesProtocol(WireProtocol):
    name = "responses"

    def to_chat(self, body: dict[str, Any], history: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        for field, what in UNSUPPORTED_FIELDS.items():
            if body.get(field):
                raise Unexpressible(f"'{field}': {what} are not kept by the nightshift proxy; send the whole input",
                                    field)
        tools = _tools(body.get("tools"))
        messages = list(history or []) + _conversation(body.get("input", []))
        if isinstance(body.get("instructions"), str) and body["instructions"]:
            messages.insert(0, {"role": "system", "content": body["instructions"]})
        chat: dict[str, Any] = {"model": body.get("model"), "messages": messages}
        if tools:
            chat["tools"] = tools
        choice = _tool_choice(body.get("tool_choice"))
        if choice is not None:
            chat["tool_choice"] = choice
        if isinstance(body.get("max_output_tokens"), int):
            chat["max_tokens"] = body["max_output_tokens"]
        chat.update({k: body[k] for k in SAMPLING if body.get(k) is not None})
        response_format = _response_format(body.get("text"))
        if response_format:
            chat["response_format"] = response_format
        return chat

    def history(self, request: dict[str, Any], chat_body: dict[str, Any], completion: dict[str, Any]
                ) -> list[dict[str, Any]]:
        """What ``previous_response_id`` continues: the conversation without the instructions, plus the reply."""
        messages = chat_body["messages"][1:] if request.get("instructions") else chat_body["messages"]
        message, _ = choice_of(completion)
        reply = {k: message[k] for k in ("role", "content", "tool_calls") if message.get(k) is not None}
        return [*messages, reply or {"role": "assistant", "content": ""}]

    def from_chat(self, completion: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
        message, finish = choice_of(completion)
        output: list[dict[str, Any]] = []
        if message.get("content"):
            output.append({"type": "message", "id": new_id("msg_"), "status": "completed", "role": "assistant",
                           "content": [{"type": "output_text", "text": message["content"], "annotations": [],
                                        "logprobs": []}]})
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            output.append({"type": "function_call", "id": new_id("fc_"), "call_id": call.get("id"),
                           "name": function.get("name"), "arguments": function.get("arguments") or "{}",
                           "status": "completed"})
        prompt, produced = usage_of(completion)
        truncated = finish == "length"
        return {
            "id": new_id("resp_"), "object": "response", "created_at": int(completion.get("created") or time.time()),
            "status": "incomplete" if truncated else "completed", "model": completion.get("model"),
            "output": output, "error": None,
            "incomplete_details": {"reason": "max_output_tokens"} if truncated else None,
            "instructions": request.get("instructions"), "max_output_tokens": request.get("max_output_tokens"),
            "parallel_tool_calls": request.get("parallel_tool_calls", True),
            "previous_response_id": request.get("previous_response_id"),
            "temperature": request.get("temperature"), "top_p": request.get("top_p"),
            "tool_choice": request.get("tool_choice", "auto"), "tools": request.get("tools") or [],
            "text": request.get("text") or {"format": {"type": "text"}}, "truncation": "disabled",
            "metadata": request.get("metadata") or {}, "store": False,
            "usage": {"input_tokens": prompt, "output_tokens": produced, "total_tokens": prompt + produced,
                      "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens_details": {"reasoning_tokens": 0}},
        }

    def stream(self, reply: dict[str, Any], request: dict[str, Any]) -> Iterator[str]:
        sequence = iter(range(1 << 30))

        def event(kind: str, **fields: Any) -> str:
            return sse({"type": kind, "sequence_number": next(sequence), **fields}, kind)

        opening = {**reply, "status": "in_progress", "output": [], "usage": None, "incomplete_details": None}
        yield event("response.created", response=opening)
        yield event("response.in_progress", response=opening)
        for index, item in enumerate(reply["output"]):
            if item["type"] == "message":
                yield from self._stream_message(event, index, item)
            else:
                yield event("response.output_item.added", output_index=index,
                            item={**item, "arguments": "", "status": "in_progress"})
                for piece in chunks(item["arguments"]):
                    yield event("response.function_call_arguments.delta", item_id=item["id"], output_index=index,
                                delta=piece)
                yield event("response.function_call_arguments.done", item_id=item["id"], output_index=index,
                            name=item["name"], arguments=item["arguments"])
                yield event("response.output_item.done", output_index=index, item=item)
        final = "response.incomplete" if reply["status"] == "incomplete" else "response.completed"
        yield event(final, response=reply)

    @staticmethod
    def _stream_message(event: Any, index: int, item: dict[str, Any]) -> Iterator[str]:
        part = item["content"][0]
        yield event("response.output_item.added", output_index=index,
                    item={**item, "status": "in_progress", "content": []})
        yield event("response.content_part.added", item_id=item["id"], output_index=index, content_index=0,
                    part={**part, "text": ""})
        for piece in chunks(part["text"]):
            yield event("response.output_text.delta", item_id=item["id"], output_index=index, content_index=0,
                        delta=piece, logprobs=[])
        yield event("response.output_text.done", item_id=item["id"], output_index=index, content_index=0,
                    text=part["text"], logprobs=[])
        yield event("response.content_part.done", item_id=item["id"], output_index=index, content_index=0,
                    part=part)
        yield event("response.output_item.done", output_index=index, item=item)
