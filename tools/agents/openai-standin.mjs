// A loopback stand-in for the OpenAI Responses API (`POST /v1/responses`, streamed), enough for
// Codex with a custom `model_providers` base URL: it answers the agent's turns with scripted tool
// calls (one function call per response, then a closing message) and records every request, so
// a scenario can read the output each call came back with. It never forwards anything: it is
// the model.

import { createServer } from "node:http";

const HOST = "127.0.0.1";

function sse(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const event of events) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

const USAGE = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 10,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 20,
};

/** How many of our calls the conversation already holds: the script's next step. */
function stepOf(input) {
  return (input ?? []).filter((item) =>
    ["function_call", "custom_tool_call", "local_shell_call"].includes(item.type),
  ).length;
}

/** The outputs the request carries for earlier calls, by call id. */
export function callOutputs(body) {
  return (body.input ?? [])
    .filter(
      (item) => item.type === "function_call_output" || item.type === "custom_tool_call_output",
    )
    .map((item) => ({
      call_id: item.call_id,
      output: typeof item.output === "string" ? item.output : JSON.stringify(item.output),
    }));
}

function itemOf(turn, step) {
  const callId = `call_standin_${step}`;
  if (turn.custom) {
    return {
      type: "custom_tool_call",
      id: `ctc_${step}`,
      call_id: callId,
      name: turn.name,
      input: turn.input,
    };
  }
  return {
    type: "function_call",
    id: `fc_${step}`,
    call_id: callId,
    name: turn.name,
    ...(turn.namespace ? { namespace: turn.namespace } : {}),
    arguments: JSON.stringify(turn.arguments),
  };
}

/** Answers one Responses request: the script's next call, or its closing words. */
function reply(res, body, count, { turns, closing, onStep }) {
  // The agent's own turns offer its shell; side requests (a title for the task) do not.
  const mainLoop = Array.isArray(body.tools) && body.tools.some((t) => t.name === "exec_command");
  const step = stepOf(body.input);
  if (mainLoop) onStep(step, body);
  const scripted = mainLoop ? turns[step] : undefined;
  const turn = typeof scripted === "function" ? scripted(body) : scripted;
  const id = `resp_standin_${count}`;
  const text = mainLoop ? closing : "Stand-in";
  const item = turn
    ? itemOf(turn, step)
    : {
        type: "message",
        role: "assistant",
        id: `msg_standin_${step}`,
        content: [{ type: "output_text", text, annotations: [] }],
      };
  sse(res, [
    { type: "response.created", response: { id } },
    { type: "response.output_item.added", output_index: 0, item },
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response: { id, usage: USAGE } },
  ]);
}

/**
 * Starts the stand-in. `turns` is the script: `{name, arguments}` function calls (or `{custom:
 * true, name, input}` for a free-form tool such as apply_patch), each a function of the request
 * if it must read something off it. After the last, the model says `closing`. `onStep(step,
 * body)` is told when a main-loop request asks for step `step`, before it is answered. Side
 * requests (no shell offered: a title for the task) get a short text.
 */
export function startOpenAIStandin({ turns, closing = "Done.", onStep = () => {} }) {
  const requests = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      let body = {};
      try {
        body = JSON.parse(raw || "{}");
      } catch {
        // recorded as sent
      }
      requests.push({ method: req.method, url: req.url, body });
      if (req.method !== "POST" || !req.url?.endsWith("/responses")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "not served by the stand-in" } }));
        return;
      }
      reply(res, body, requests.length, { turns, closing, onStep });
    });
  });
  return new Promise((resolve) => {
    server.listen(0, HOST, () => {
      const { port } = server.address();
      resolve({
        url: `http://${HOST}:${port}/v1`,
        requests,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections?.();
            server.close(() => r());
          }),
      });
    });
  });
}
