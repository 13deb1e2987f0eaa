"""A local OpenAI-compatible Chat Completions endpoint for the language-model writer's tests."""

from tests.llm_server.server import GOOD_KEY, ChatServer, Reply, Request

__all__ = ["GOOD_KEY", "ChatServer", "Reply", "Request"]
