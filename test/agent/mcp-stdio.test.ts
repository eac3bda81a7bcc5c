// The agent stories over stdio: `qbridge mcp --box DIR` as a real child process, started the
// way a desktop or coding agent starts it, driven by the SDK's own Client.

import { connectStdio } from "./agent-support.ts";
import { agentStories } from "./stories.ts";

agentStories("stdio (qbridge mcp)", async (h) => {
  const { client } = await connectStdio(h.dir);
  return { client, close: () => client.close() };
});
