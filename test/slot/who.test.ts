// The judge's word on who acted (src/slot/judge/who.ts), with no bridge at all: each kind of
// surface, given what it declared and the raw proof an attempt carries, earns the trust the
// declaration says and no more; a proof of another kind than the surface takes earns nothing;
// and a question an agent's hook filed is answered or declined only at boxholder trust.

import { describe, expect, it } from "vitest";
import { NotOwnSurface } from "../../src/errors.ts";
import type { Proof, SurfaceDeclaration } from "../../src/slot/judge/proof.ts";
import { type Book, mayAct, whoActed } from "../../src/slot/judge/who.ts";
import { API_SURFACE, CLI_SURFACE, MCP_SURFACE, WEB_SURFACE } from "../../src/surfaces.ts";

/** A box where "ada" is paired on chat, "ada@example.org" on mail, and mail message m-1 showed a question. */
const book: Book = {
  owner: (surface) => ({ chat: "ada", mail: "ada@example.org" })[surface],
  showed: (surface, chatId, messageId) =>
    surface === "mail" && chatId === "ada@example.org" && messageId === "m-1",
};

const CHAT: SurfaceDeclaration = { name: "chat", proves: "paired-account" };
const MAIL: SurfaceDeclaration = { name: "mail", proves: "paired-address" };
const TERMINAL: SurfaceDeclaration = { name: "terminal", proves: "a-terminal" };

const trust = (surface: SurfaceDeclaration, proof: Proof) =>
  whoActed({ surface, proof }, book).trust;
const account = (userId: string, privateChat = true): Proof => ({
  kind: "account",
  userId,
  chatId: userId,
  privateChat,
});

describe("what each surface's proof earns", () => {
  it("a chat: the paired account in its private chat is the boxholder; anyone else, or a group, a stranger", () => {
    expect(trust(CHAT, account("ada"))).toBe("boxholder");
    expect(trust(CHAT, account("mallory"))).toBe("stranger");
    expect(trust(CHAT, account("ada", false))).toBe("stranger");
    expect(trust({ ...CHAT, fixedOwner: "bob" }, account("ada"))).toBe("stranger");
    expect(trust({ name: "new", proves: "paired-account" }, account("ada"))).toBe("stranger");
  });

  it("mail: the paired address replying to a message that showed a question; not a reply, or another sender, a stranger", () => {
    const mail = (sender: string, inReplyTo: string | undefined): Proof => ({
      kind: "address",
      sender,
      inReplyTo,
    });
    expect(trust(MAIL, mail("Ada@Example.org", "m-1"))).toBe("boxholder");
    expect(trust(MAIL, mail("ada@example.org", undefined))).toBe("stranger");
    expect(trust(MAIL, mail("ada@example.org", "m-9"))).toBe("stranger");
    expect(trust(MAIL, mail("mallory@example.org", "m-1"))).toBe("stranger");
  });

  it("a terminal: a person at it is the boxholder, piped input an asker", () => {
    expect(trust(TERMINAL, { kind: "terminal", tty: true, login: "ada" })).toBe("boxholder");
    expect(trust(TERMINAL, { kind: "terminal", tty: false, login: "ada" })).toBe("asker");
  });

  it("the web page: the role its link was signed for; the API, MCP and the CLI: askers", () => {
    expect(trust(WEB_SURFACE, { kind: "link", role: "boxholder" })).toBe("boxholder");
    expect(trust(WEB_SURFACE, { kind: "link", role: "asker" })).toBe("asker");
    expect(trust(API_SURFACE, { kind: "token", by: "ada" })).toBe("asker");
    expect(trust(MCP_SURFACE, { kind: "session", id: "s" })).toBe("asker");
    expect(trust(CLI_SURFACE, { kind: "shell", login: "ada" })).toBe("asker");
  });

  it("a proof of another kind than the surface takes earns nothing", () => {
    expect(trust(CHAT, { kind: "terminal", tty: true, login: "ada" })).toBe("stranger");
    expect(trust(WEB_SURFACE, account("ada"))).toBe("stranger");
    expect(trust(API_SURFACE, { kind: "link", role: "boxholder" })).toBe("stranger");
  });
});

describe("what each trust may do", () => {
  const asker = whoActed({ surface: API_SURFACE, proof: { kind: "token", by: undefined } }, book);
  const holder = whoActed({ surface: CHAT, proof: account("ada") }, book);
  const stranger = whoActed({ surface: CHAT, proof: account("mallory") }, book);
  const hooked = { id: "q", card: { kind: "elicitation" as const } };
  const ordinary = { id: "q", card: {} };

  it("an asker answers and declines ordinary questions, never one an agent's hook filed", () => {
    expect(mayAct(asker, "answer", ordinary)).toBeUndefined();
    expect(mayAct(asker, "decline", ordinary)).toBeUndefined();
    for (const act of ["answer", "decline"] as const) {
      const refused = mayAct(asker, act, hooked);
      expect(refused?.reason).toBe("not-own-surface");
      expect(refused && "error" in refused && refused.error).toBeInstanceOf(NotOwnSurface);
    }
    expect(mayAct(asker, "attend", hooked)).toBeUndefined();
    expect(mayAct(asker, "grants")).toEqual({ reason: "boxholder-only" });
  });

  it("the boxholder does anything; a stranger nothing", () => {
    for (const act of ["answer", "decline", "attend", "read", "grants"] as const) {
      expect(mayAct(holder, act, hooked)).toBeUndefined();
      expect(mayAct(stranger, act, ordinary)).toEqual({ reason: "stranger" });
    }
  });
});
