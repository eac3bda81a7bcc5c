// The agent stories over Streamable HTTP: /mcp on a real web server over the harness's box,
// behind the API's bearer token, driven by the SDK's own Client.

import { loadConfig } from "../../src/config.ts";
import { serveMcp } from "../../src/mcp/http.ts";
import { startWeb } from "../../src/web/server.ts";
import { connectHttp } from "./agent-support.ts";
import { agentStories } from "./stories.ts";

const TOKEN = "mcp-test-token-0123456789";

agentStories("Streamable HTTP (/mcp)", async (h) => {
  const config = loadConfig({ QBRIDGE_WEB_PORT: "0", QBRIDGE_API_TOKEN: TOKEN }, { box: h.dir });
  const web = await startWeb({
    core: h,
    config,
    mcp: serveMcp,
    onTransition: () => h.slot.reconcile(),
  });
  const client = await connectHttp(web.url, TOKEN);
  return {
    client,
    close: async () => {
      await client.close();
      await web.close();
    },
  };
});
