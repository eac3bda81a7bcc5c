// The real mail servers the e-mail tests run against: Debian's Dovecot as the boxholder's
// mailbox (IMAP), started unprivileged on a loopback port with a throw-away configuration, user
// database and maildir under a temporary folder, and smtp-server in process as the outgoing
// server, keeping every message handed to it. Nothing here runs as root: as root (CI), Dovecot
// is started as `nobody` with setpriv; as a contributor, as themselves.
//
// `deliver` appends a message into the mailbox over IMAP, as a mail server delivering the
// boxholder's reply would. One Dovecot per test file (useMailServers), not per test.

import { spawn } from "node:child_process";
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { type AddressInfo, createConnection } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ImapFlow } from "imapflow";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";
import { unusedPort } from "./ports.ts";

export const MAILBOX_USER = "boxholder";
export const MAILBOX_PASSWORD = "mailbox-secret";
export const SMTP_USER = "bridge";
export const SMTP_PASSWORD = "smtp-secret";

export interface Dovecot {
  /** imap://user:password@127.0.0.1:port/INBOX */
  url: string;
  port: number;
  /** A new empty mailbox (one per test, so tests never read each other's mail) and its URL. */
  mailbox(): Promise<{ name: string; url: string }>;
  /** Appends a raw message to a mailbox as a delivering mail server would; resolves to its UID. */
  deliver(raw: string, mailbox: string): Promise<number>;
  stop(): Promise<void>;
}

/** Who Dovecot runs as: this user, or nobody when the tests run as root. */
function runAs(): { uid: number; gid: number; user: string; group: string } {
  const me = userInfo();
  const name = me.uid === 0 ? "nobody" : me.username;
  const passwd = readFileSync("/etc/passwd", "utf8").split("\n");
  const entry = passwd.find((line) => line.startsWith(`${name}:`))?.split(":");
  const uid = me.uid === 0 ? Number(entry?.[2] ?? 65534) : me.uid;
  const gid = me.uid === 0 ? Number(entry?.[3] ?? 65534) : me.gid;
  const groups = readFileSync("/etc/group", "utf8").split("\n");
  const group = groups.find((line) => line.split(":")[2] === String(gid))?.split(":")[0];
  return { uid, gid, user: name, group: group ?? String(gid) };
}

function configuration(dir: string, port: number, as: ReturnType<typeof runAs>): string {
  return `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${as.user}
default_internal_group = ${as.group}
default_login_user = ${as.user}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = passwd-file
  args = username_format=%u ${dir}/users
}
mail_location = maildir:~/Maildir
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
service stats {
  unix_listener stats-reader {
    user = ${as.user}
  }
  unix_listener stats-writer {
    user = ${as.user}
  }
}
`;
}

/** Resolves once the server greets on `port`; a bounded wait. */
async function greeted(port: number, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, "127.0.0.1");
      socket.once("data", (data) => {
        socket.destroy();
        resolve(String(data).startsWith("* OK"));
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await sleep(20);
  }
  throw new Error(`Dovecot did not answer on 127.0.0.1:${port}:\n${log()}`);
}

export async function startDovecot(): Promise<Dovecot> {
  const dir = mkdtempSync(join(tmpdir(), "qbridge-dovecot-"));
  const as = runAs();
  for (const sub of ["run", "state", "home"]) mkdirSync(join(dir, sub));
  const port = await unusedPort();
  writeFileSync(join(dir, "dovecot.conf"), configuration(dir, port, as));
  writeFileSync(
    join(dir, "users"),
    `${MAILBOX_USER}:{PLAIN}${MAILBOX_PASSWORD}:${as.uid}:${as.gid}::${dir}/home/${MAILBOX_USER}::\n`,
  );
  const root = userInfo().uid === 0;
  if (root) for (const path of walk(dir)) chownSync(path, as.uid, as.gid);
  const conf = join(dir, "dovecot.conf");
  // Debian puts it in /usr/sbin, which a contributor's PATH may leave out.
  const dovecot = existsSync("/usr/sbin/dovecot") ? "/usr/sbin/dovecot" : "dovecot";
  const command = root
    ? ["setpriv", `--reuid=${as.uid}`, `--regid=${as.gid}`, "--clear-groups", dovecot, "-c", conf]
    : [dovecot, "-c", conf];
  // In the foreground (-F), as this process's child: stopped by signal, never left daemonized.
  const master = spawn(command[0] as string, [...command.slice(1), "-F"], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => master.once("exit", () => resolve()));
  const log = () => readOr(join(dir, "dovecot.log"));
  await greeted(port, log);
  const url = `imap://${MAILBOX_USER}:${MAILBOX_PASSWORD}@127.0.0.1:${port}/INBOX`;
  // One connection of the delivering server's, kept for the file's tests.
  const client = imapClient(port);
  await client.connect();
  let made = 0;
  return {
    url,
    port,
    async mailbox() {
      made += 1;
      const name = `Box${made}`;
      await client.mailboxCreate(name);
      return { name, url: url.replace(/INBOX$/, name) };
    },
    deliver: (raw, mailbox) => appended(client, raw, mailbox),
    async stop() {
      await client.logout().catch(() => client.close());
      master.kill("SIGTERM");
      await Promise.race([exited, sleep(5_000)]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function appended(client: ImapFlow, raw: string, mailbox: string): Promise<number> {
  const uid = (await client.append(mailbox, raw)) || undefined;
  if (!uid?.uid) throw new Error("Dovecot did not say the appended message's UID");
  return uid.uid;
}

function imapClient(port: number): ImapFlow {
  return new ImapFlow({
    host: "127.0.0.1",
    port,
    secure: false,
    auth: { user: MAILBOX_USER, pass: MAILBOX_PASSWORD },
    logger: false,
  });
}

function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function walk(dir: string): string[] {
  const found = [dir];
  for (const sub of ["run", "state", "home", "dovecot.conf", "users"]) found.push(join(dir, sub));
  return found;
}

/** A message smtp-server took: the envelope and the message as mailparser reads it. */
export interface Sent {
  from: string;
  to: string[];
  raw: string;
  mail: ParsedMail;
}

export interface Outbox {
  /** smtp://user:password@127.0.0.1:port */
  url: string;
  sent: Sent[];
  /** Resolves with the `count`th message handed over (1-based), waiting a bounded time. */
  nth(count: number): Promise<Sent>;
  close(): Promise<void>;
}

/** The outgoing server, in process: it takes every message and keeps it. */
export async function startOutbox(): Promise<Outbox> {
  const sent: Sent[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = auth.username === SMTP_USER && auth.password === SMTP_PASSWORD;
      callback(ok ? null : new Error("bad login"), ok ? { user: auth.username } : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const to = session.envelope.rcptTo.map((r) => r.address);
        sent.push({ from, to, raw, mail: await simpleParser(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    sent,
    async nth(count) {
      for (let i = 0; i < 250 && sent.length < count; i++) await sleep(20);
      const found = sent[count - 1];
      if (!found) throw new Error(`the outbox holds ${sent.length} messages, not ${count}`);
      return found;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface MailServers {
  dovecot: Dovecot;
  outbox: Outbox;
}

/** One Dovecot and one outgoing server for the test file, stopped after it. */
export function useMailServers(): () => MailServers {
  let servers: MailServers | undefined;
  beforeAll(async () => {
    servers = { dovecot: await startDovecot(), outbox: await startOutbox() };
  });
  afterAll(async () => {
    await servers?.outbox.close();
    await servers?.dovecot.stop();
  });
  return () => {
    if (!servers)
      throw new Error("the mail servers are not running: call useMailServers() at file level");
    return servers;
  };
}
