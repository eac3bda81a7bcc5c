// A loopback stand-in for the Anthropic Messages API (`POST /v1/messages`), enough for Claude
// Code: it answers the agent's main loop with scripted turns (one tool_use per turn, then a
// closing text) and records every request, so a scenario can read the tool_result each tool
// call came back with. Requests outside the main loop (titles, summaries: no tools) get a short
// text. It never forwards anything anywhere: it is the model.

import { createServer } from "node:http";

const HOST = "127.0.0.1";

function sse(res, events) {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "request-id": "req_standin",
  });
  for (const event of events) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

function message(model, content, stopReason) {
  return {
    id: `msg_standin_${Math.random().toString(36).slice(2, 10)}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

/** The stream events of a message whose content is `blocks` (text or tool_use). */
function streamOf(model, blocks, stopReason) {
  const events = [{ type: "message_start", message: message(model, [], null) }];
  blocks.forEach((block, index) => {
    if (block.type === "text") {
      events.push({
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      events.push({
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      });
    } else {
      const start = { type: "tool_use", id: block.id, name: block.name, input: {} };
      events.push({ type: "content_block_start", index, content_block: start });
      events.push({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    events.push({ type: "content_block_stop", index });
  });
  events.push({
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 10 },
  });
  events.push({ type: "message_stop" });
  return events;
}

/** How many of our tool calls the conversation already holds: the script's next step. */
function stepOf(messages) {
  let calls = 0;
  for (const m of messages ?? []) {
    if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
    calls += m.content.filter((b) => b.type === "tool_use").length;
  }
  return calls;
}

/** The tool results the request carries, with the text of each. */
export function toolResults(body) {
  const results = [];
  for (const m of body.messages ?? []) {
    if (m.role !== "user" || !Array.isArray(m.content)) continue;
    for (const block of m.content) {
      if (block.type !== "tool_result") continue;
      const text = Array.isArray(block.content)
        ? block.content.map((c) => c.text ?? "").join("\n")
        : String(block.content ?? "");
      results.push({ tool_use_id: block.tool_use_id, is_error: Boolean(block.is_error), text });
    }
  }
  return results;
}

/** Answers one Messages request: the script's next tool call, or its closing words. */
function reply(res, body, { turns, closing, onStep }) {
  const model = body.model ?? "claude-standin";
  const mainLoop =
    Array.isArray(body.tools) && body.tools.some((t) => String(t.name).toLowerCase() === "bash");
  let blocks = [{ type: "text", text: mainLoop ? closing : "Stand-in" }];
  let stop = "end_turn";
  if (mainLoop) {
    const step = stepOf(body.messages);
    onStep(step, body);
    const scripted = turns[step];
    const turn = typeof scripted === "function" ? scripted(body) : scripted;
    if (turn) {
      blocks = [{ type: "tool_use", id: `toolu_standin_${step}`, ...turn }];
      stop = "tool_use";
    }
  }
  if (body.stream) {
    sse(res, streamOf(model, blocks, stop));
  } else {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(message(model, blocks, stop)));
  }
}

/**
 * Starts the stand-in. `turns` is the main loop's script: `{name, input}` tool calls in order
 * (or a function of the request that returns one, for inputs read off the conversation);
 * after the last, the model says `closing` and ends its turn. `onStep(step)` is told when a
 * main-loop request asks for step `step` (before it is answered), so a scenario can act then.
 */
export function startAnthropicStandin({ turns, closing = "Done.", onStep = () => {} }) {
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
      if (!req.url?.startsWith("/v1/messages") || req.method !== "POST") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "" } }));
        return;
      }
      if (req.url.startsWith("/v1/messages/count_tokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: 100 }));
        return;
      }
      reply(res, body, { turns, closing, onStep });
    });
  });
  return new Promise((resolve) => {
    server.listen(0, HOST, () => {
      const { port } = server.address();
      resolve({
        url: `http://${HOST}:${port}`,
        requests,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}
