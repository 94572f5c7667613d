"""Drives ollm-mcp with the official Python MCP SDK (`mcp` from PyPI) over
stdio, in the protocol generation named by argv[1] (`initialize` or
`discover`), and prints what it saw as one JSON object for the Rust test
(tests/e2e/mcp/python.rs) to check. argv[2] is the server, argv[3] the id
of a long session to page through."""
import asyncio
import json
import os
import sys

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


async def main(mode, server, long_id):
    params = StdioServerParameters(command=server, args=[], env=dict(os.environ), cwd=os.getcwd())
    seen = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            if mode == "discover":
                await session.discover()
            else:
                await session.initialize()
            seen["version"] = session.protocol_version
            tools = await session.list_tools()
            seen["tools"] = [t.name for t in tools.tools]
            seen["schemas"] = all(t.output_schema is not None for t in tools.tools)

            async def call(name, arguments):
                result = await session.call_tool(name, arguments)
                text = result.content[0].text if result.content else ""
                return {"isError": bool(result.is_error), "structured": result.structured_content, "text": text}

            seen["list"] = await call("list_sessions", {})
            seen["search"] = await call("search_sessions", {"query": "backoff"})
            seen["context"] = await call("get_context", {})
            seen["files"] = await call("discover_files", {})
            pages = []
            page = await call("get_session", {"session": long_id, "maxTokens": 250})
            while True:
                pages.append(page["structured"])
                cursor = page["structured"].get("nextCursor")
                if not cursor:
                    break
                page = await call("get_session", {"cursor": cursor, "maxTokens": 250})
            seen["pages"] = pages
            resource = await session.read_resource(f"ollm://session/{long_id}")
            seen["resource"] = resource.contents[0].text
            seen["bad_id"] = await call("get_session", {"session": "../../etc/passwd"})
            seen["bad_argument"] = await call("get_session", {"latest": True, "maxTokens": "lots"})
            seen["after"] = await call("list_sessions", {"limit": 1})
    print(json.dumps(seen))


asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
