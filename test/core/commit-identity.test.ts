// Story: qbridge runs on a fresh machine where git has no name or e-mail configured, and on a
// machine where the boxholder configured theirs: commits are made either way, as qbridge on
// the first, as the boxholder on the second. Where only half is configured, qbridge fills in
// the other half; git never guesses one from the host name.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { confirmCard, runCli } from "../support/box.ts";

const work = mkdtempSync(join(tmpdir(), "qbridge-identity-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A home of its own: git reads no system config and only this home's. */
function machine(name: string, gitconfig?: string): Record<string, string> {
  const home = join(work, name);
  mkdirSync(home);
  if (gitconfig) writeFileSync(join(home, ".gitconfig"), gitconfig);
  return { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), GIT_CONFIG_NOSYSTEM: "1" };
}

async function askedAuthor(env: Record<string, string>): Promise<string> {
  const box = join(env.HOME as string, "box");
  expect((await runCli(["init", "--box", box], { env })).code).toBe(0);
  const asked = await runCli(["ask", "--box", box], {
    env,
    input: JSON.stringify(confirmCard()),
  });
  expect(asked.code, asked.stderr).toBe(0);
  return execFileSync("git", ["-C", box, "log", "-1", "--format=%an <%ae>"], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  }).trim();
}

describe("the identity of qbridge's commits", () => {
  it("commits as qbridge where git has no identity configured", async () => {
    expect(await askedAuthor(machine("fresh"))).toBe("qbridge <qbridge@localhost>");
  });

  it("commits as the boxholder where git has theirs configured", async () => {
    const env = machine("configured", "[user]\n\tname = Boxholder\n\temail = me@example.org\n");
    expect(await askedAuthor(env)).toBe("Boxholder <me@example.org>");
  });

  it("keeps the half of an identity that is configured and fills in the other as qbridge", async () => {
    const onlyEmail = machine("only-email", "[user]\n\temail = me@example.org\n");
    expect(await askedAuthor(onlyEmail)).toBe("qbridge <me@example.org>");
    const onlyName = machine("only-name", "[user]\n\tname = Boxholder\n");
    expect(await askedAuthor(onlyName)).toBe("Boxholder <qbridge@localhost>");
  });

  it("asks git nothing but the commit where the identity is configured", async () => {
    const env = machine("counted", "[user]\n\tname = Boxholder\n\temail = me@example.org\n");
    const box = join(env.HOME as string, "box");
    expect((await runCli(["init", "--box", box], { env })).code).toBe(0);
    // A git first on PATH that notes each command it is asked for, then runs the real one.
    const bin = join(work, "counting-bin");
    const log = join(work, "git-commands.log");
    mkdirSync(bin);
    const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    writeFileSync(
      join(bin, "git"),
      `#!/bin/sh\necho "git: $*" >> '${log}'\nexec '${realGit}' "$@"\n`,
      {
        mode: 0o755,
      },
    );
    const asked = await runCli(["ask", "--box", box], {
      env: { ...env, PATH: `${bin}:${process.env.PATH ?? ""}` },
      input: JSON.stringify(confirmCard()),
    });
    expect(asked.code, asked.stderr).toBe(0);
    // One "git: …" line per command (a commit message's own lines follow its command's).
    const commands = readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("git: "))
      .map((line) => line.split(" ").find((word) => /^[a-z][a-z-]*$/.test(word)));
    expect(commands).toEqual(["add", "commit"]);
  });
});
