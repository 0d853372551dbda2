"""The translations between the wire protocols and the chat shape, case by case (pure functions, no server)."""

from __future__ import annotations

import json

import pytest

from nightshift.gateway.headers import RateLimitHeaders
from nightshift.protocols import MESSAGES, RESPONSES, ProviderToolRefused, Unexpressible
from nightshift.protocols.upstream import (
    chat_to_messages,
    chat_to_responses,
    messages_to_chat,
    responses_to_chat,
)

CALL = {"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": "ls"})}}
CHAT = {"model": "m", "max_tokens": 50, "messages": [
    {"role": "system", "content": "be brief"},
    {"role": "user", "content": "fix it"},
    {"role": "assistant", "content": "Looking.", "tool_calls": [CALL]},
    {"role": "tool", "tool_call_id": "call_1", "content": "a.py"},
    {"role": "user", "content": "go on"}],
    "tools": [{"type": "function", "function": {"name": "bash", "description": "run", "parameters": {
        "type": "object", "properties": {"command": {"type": "string"}}}}}]}


def test_a_chat_conversation_survives_the_trip_through_each_protocol() -> None:
    """What the gateway sends an Anthropic or Responses endpoint reads back, in the proxy, as the same chat body."""
    over_messages = chat_to_messages(CHAT)
    assert over_messages["system"] == "be brief" and [t["role"] for t in over_messages["messages"]] == [
        "user", "assistant", "user"]  # the tool result joins the next user turn: Messages alternates
    assert over_messages["messages"][2]["content"][0] == {"type": "tool_result", "tool_use_id": "call_1",
                                                          "content": "a.py"}
    assert MESSAGES.to_chat(over_messages)["messages"] == CHAT["messages"]
    over_responses = chat_to_responses(CHAT)
    assert over_responses["instructions"] == "be brief" and over_responses["max_output_tokens"] == 50
    assert [i["type"] for i in over_responses["input"]] == ["message", "message", "function_call",
                                                            "function_call_output", "message"]
    back = RESPONSES.to_chat(over_responses)
    assert back["messages"] == CHAT["messages"] and back["tools"] == CHAT["tools"]


def test_anthropic_blocks_become_chat_messages() -> None:
    body = {"model": "m", "max_tokens": 10, "system": [{"type": "text", "text": "sys"}], "messages": [
        {"role": "user", "content": [{"type": "text", "text": "look"},
                                     {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                                  "data": "iVBO"}}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "hmm", "signature": "s"},
                                          {"type": "tool_use", "id": "toolu_1", "name": "bash",
                                           "input": {"command": "ls"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
                                      "content": "no such file"}, {"type": "text", "text": "now?"}]}],
        "tool_choice": {"type": "any", "disable_parallel_tool_use": True}}
    chat = MESSAGES.to_chat(body)
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBO"}}
    assert chat["messages"][1]["content"][1] == image
    assert chat["messages"][2] == {"role": "assistant", "content": None, "tool_calls": [
        {"id": "toolu_1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}]}
    assert chat["messages"][3:] == [{"role": "tool", "tool_call_id": "toolu_1", "content": "Error: no such file"},
                                    {"role": "user", "content": "now?"}]
    assert chat["tool_choice"] == "required" and chat["parallel_tool_calls"] is False


@pytest.mark.parametrize(("change", "error", "field"), [
    ({"mcp_servers": [{"type": "url", "url": "https://x", "name": "x"}]}, ProviderToolRefused, "mcp_servers"),
    ({"tools": [{"type": "code_execution_20250522", "name": "code_execution"}]}, ProviderToolRefused, "tools"),
    ({"tools": [{"type": "bash_20250124", "name": "bash"}]}, Unexpressible, "tools.0"),
    ({"stop_sequences": ["a", "b", "c", "d", "e"]}, Unexpressible, "stop_sequences"),
    ({"messages": [{"role": "user", "content": [{"type": "document", "source": {}}]}]}, Unexpressible,
     "messages.0.content.0"),
    ({"max_tokens": None}, Unexpressible, "max_tokens"),
])
def test_what_messages_cannot_send_is_refused_naming_the_field(change, error, field) -> None:
    body = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}], **change}
    with pytest.raises(error) as refused:
        MESSAGES.to_chat(body)
    assert refused.value.param == field


def test_responses_items_become_chat_messages() -> None:
    body = {"model": "m", "instructions": "sys", "text": {"format": {"type": "json_schema", "name": "x",
                                                                       "schema": {"type": "object"}}},
            "input": [{"type": "message", "role": "developer", "content": "rules"},
                      {"role": "user", "content": [{"type": "input_text", "text": "hi"}]},
                      {"type": "reasoning", "id": "rs_1", "summary": []},
                      {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]},
                      {"type": "function_call", "call_id": "c1", "name": "bash", "arguments": "{}"},
                      {"type": "function_call", "call_id": "c2", "name": "bash", "arguments": "{}"},
                      {"type": "function_call_output", "call_id": "c1", "output": "one"},
                      {"type": "function_call_output", "call_id": "c2", "output": [{"type": "input_text",
                                                                                   "text": "two"}]}]}
    chat = RESPONSES.to_chat(body)
    assert [m["role"] for m in chat["messages"]] == ["system", "system", "user", "assistant", "tool", "tool"]
    assert [c["id"] for c in chat["messages"][3]["tool_calls"]] == ["c1", "c2"]  # one turn's calls, one message
    assert chat["messages"][5] == {"role": "tool", "tool_call_id": "c2", "content": "two"}
    schema = {"name": "x", "schema": {"type": "object"}}
    assert chat["response_format"] == {"type": "json_schema", "json_schema": schema}
    for item, error in (({"type": "web_search_call", "id": "ws"}, ProviderToolRefused),
                        ({"type": "item_reference", "id": "msg_1"}, Unexpressible)):
        with pytest.raises(error):
            RESPONSES.to_chat({"model": "m", "input": [item]})
    with pytest.raises(Unexpressible, match="background"):
        RESPONSES.to_chat({"model": "m", "input": "hi", "background": True})


def test_endpoint_replies_read_back_as_chat_completions() -> None:
    anthropic = messages_to_chat({"id": "msg_1", "model": "claude", "stop_reason": "max_tokens", "content": [
        {"type": "text", "text": "part"}, {"type": "tool_use", "id": "t1", "name": "bash", "input": {"a": 1}}],
        "usage": {"input_tokens": 5, "cache_read_input_tokens": 7, "output_tokens": 3}})
    assert anthropic["choices"][0]["finish_reason"] == "length"
    assert anthropic["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == '{"a": 1}'
    assert anthropic["usage"] == {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15}
    responses = responses_to_chat({"id": "resp_1", "model": "gpt", "status": "completed", "output": [
        {"type": "reasoning", "id": "rs"},
        {"type": "function_call", "call_id": "c", "name": "bash", "arguments": "{}"}],
        "usage": {"input_tokens": 4, "output_tokens": 2}})
    assert responses["choices"][0]["finish_reason"] == "tool_calls" and responses["choices"][0]["message"][
        "content"] is None
    with pytest.raises(Unexpressible):
        chat_to_messages({**CHAT, "response_format": {"type": "json_object"}})
    with pytest.raises(Unexpressible):
        chat_to_responses({**CHAT, "n": 2})


def test_anthropic_quota_headers_teach_the_gate_as_openai_ones_do() -> None:
    parsed = RateLimitHeaders.parse({"anthropic-ratelimit-requests-limit": "50", "anthropic-ratelimit-tokens-limit":
                                     "40000", "anthropic-ratelimit-tokens-remaining": "0", "retry-after": "2"})
    assert (parsed.limit_requests, parsed.limit_tokens, parsed.remaining_tokens) == (50, 40000, 0)
    assert parsed.remaining_requests is None and parsed.retry_after_s == 2
    both = RateLimitHeaders.parse({"x-ratelimit-limit-requests": "600", "anthropic-ratelimit-requests-limit": "50"})
    assert both.limit_requests == 600  # OpenAI's names win where both are sent
