// The hook outputs each agent documents, written as zod, for the tests to check what a hook
// prints against: Claude Code's PermissionRequest decision control and Elicitation output
// (code.claude.com/docs/en/hooks), Codex's permission-request and interrupt command output
// schemas (embedded in the @openai/codex binary; openai/codex codex-rs/hooks), and Copilot
// CLI's permissionRequest decision control (docs.github.com/en/copilot/reference/
// hooks-reference). Light on purpose: a unit test imports it without the hook harness.

import { z } from "zod";

// Claude Code's PermissionRequest decision control (code.claude.com/docs/en/hooks): allow with
// updatedInput / updatedPermissions (permission update entries), or deny with a message and
// an optional interrupt.
const PermissionUpdate = z
  .object({
    type: z.enum([
      "addRules",
      "replaceRules",
      "removeRules",
      "setMode",
      "addDirectories",
      "removeDirectories",
    ]),
    destination: z.enum(["session", "localSettings", "projectSettings", "userSettings"]),
  })
  .passthrough();
export const ClaudePermissionOutput = z
  .object({
    hookSpecificOutput: z
      .object({
        hookEventName: z.literal("PermissionRequest"),
        decision: z.union([
          z
            .object({
              behavior: z.literal("allow"),
              updatedInput: z.record(z.unknown()).optional(),
              updatedPermissions: z.array(PermissionUpdate).optional(),
            })
            .strict(),
          z
            .object({
              behavior: z.literal("deny"),
              message: z.string().min(1),
              interrupt: z.boolean().optional(),
            })
            .strict(),
        ]),
      })
      .strict(),
  })
  .strict();

// Codex's permission-request.command.output.schema.json (additionalProperties: false), less
// what it fails closed on (output_parser.rs): updatedInput, updatedPermissions, interrupt.
export const CodexPermissionOutput = z
  .object({
    hookSpecificOutput: z
      .object({
        hookEventName: z.literal("PermissionRequest"),
        decision: z
          .object({ behavior: z.enum(["allow", "deny"]), message: z.string().optional() })
          .strict(),
      })
      .strict(),
  })
  .strict();

// Claude Code's Elicitation output: action accept|decline|cancel, content for accept.
export const ElicitationOutput = z
  .object({
    hookSpecificOutput: z
      .object({
        hookEventName: z.literal("Elicitation"),
        action: z.enum(["accept", "decline", "cancel"]),
        content: z.record(z.unknown()).optional(),
      })
      .strict(),
  })
  .strict();

// Codex's interrupt.command.output schema (additionalProperties: false): systemMessage only.
export const CodexInterruptOutput = z
  .object({ systemMessage: z.string().min(1).optional() })
  .strict();

// Copilot CLI's permissionRequest decision control: a flat object; interrupt only on a deny.
export const CopilotPermissionOutput = z.union([
  z.object({ behavior: z.literal("allow") }).strict(),
  z
    .object({
      behavior: z.literal("deny"),
      message: z.string().min(1),
      interrupt: z.literal(true).optional(),
    })
    .strict(),
]);
