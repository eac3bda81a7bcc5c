// The box: a git repository holding the cards. Opening checks that it is one; init makes one.

import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { BoxError } from "../errors.ts";
import { type Clock, createClock } from "./clock.ts";
import { type BoxGit, gitFor } from "./git.ts";
import { DEFAULT_LOCK_OPTIONS, type LockOptions, withFileLock } from "./locks.ts";
import { BOOKKEEPING_DIR, BoxPaths, JOBS_DIR, QUESTIONS_DIR, STATE_DIR } from "./paths.ts";

export interface BoxOptions {
  clock?: Clock;
  locks?: Partial<LockOptions>;
  /**
   * Flush every change to the disk before it counts as done (default true). Only the bench
   * turns it off, to measure what durability costs.
   */
  durable?: boolean;
  /**
   * The process runs for long (`serve`): git commands finish as simple-git finishes them by
   * default. Its `onExit: false` must not be used here: it races every command against one
   * promise that never settles, which keeps each race for good in a long-running process.
   */
  lasting?: boolean;
  /** How long a git command may print nothing before it is stopped (GIT_TIME_LIMIT_MS). */
  gitTimeLimitMs?: number;
}

export interface Box {
  paths: BoxPaths;
  git: BoxGit;
  clock: Clock;
  locks: LockOptions;
  /** Whether writes and commits are flushed to the disk before they count as done. */
  durable: boolean;
}

/**
 * The folders cards live in must be folders of the box itself: through a symbolic link a scan
 * would list cards from elsewhere and a write would land outside the box. Refused, as a card
 * file that is a link is; checked on open and on every scan (the link can appear later).
 */
export function checkCardFolders(paths: BoxPaths): void {
  for (const rel of [BOOKKEEPING_DIR, QUESTIONS_DIR, JOBS_DIR]) {
    const full = join(paths.root, rel);
    let linked = false;
    try {
      linked = lstatSync(full).isSymbolicLink();
    } catch {
      continue; // missing: the caller says what to do about that
    }
    if (linked) {
      throw new BoxError(
        `${full} is a symbolic link (to ${readlinkSync(full)}): card folders must be real folders inside the box; replace the link with the folder it points to`,
      );
    }
  }
}

export function openBox(root: string, options: BoxOptions = {}): Box {
  const paths = new BoxPaths(root);
  if (!existsSync(join(paths.root, ".git"))) {
    throw new BoxError(
      `${paths.root} is not a box (no git repository there): run "qbridge init --box ${root}"`,
    );
  }
  checkCardFolders(paths);
  if (!existsSync(paths.questionsDir)) {
    throw new BoxError(
      `${paths.root} has no ${QUESTIONS_DIR}/: run "qbridge init --box ${root}" to add it`,
    );
  }
  return {
    paths,
    git: gitFor(paths.root, options.lasting, options.gitTimeLimitMs),
    clock: options.clock ?? createClock(),
    locks: { ...DEFAULT_LOCK_OPTIONS, ...options.locks },
    durable: options.durable ?? true,
  };
}

const GITIGNORE_LINE = `${STATE_DIR}/`;

/** Makes (or completes) a box; safe to run again on an existing one. Returns what it did. */
export async function initBox(root: string, options: BoxOptions = {}): Promise<string[]> {
  const paths = new BoxPaths(root);
  // mkdir would fail with a bare EEXIST on a file of that name: say what is there instead.
  if (existsSync(paths.root) && !statSync(paths.root).isDirectory()) {
    throw new BoxError(
      `${paths.root} is a file, not a folder: give --box a folder to make the box in (new or existing)`,
    );
  }
  mkdirSync(paths.root, { recursive: true });
  // Two inits at once (agents starting side by side) would race git's config and index: one
  // at a time, and the later one finds the box made.
  const locks = { ...DEFAULT_LOCK_OPTIONS, ...options.locks };
  return withFileLock(paths.locksDir, "init", locks, () => layOutBox(paths, options));
}

async function layOutBox(paths: BoxPaths, options: BoxOptions): Promise<string[]> {
  const done: string[] = [];
  const git = gitFor(paths.root);
  if (!existsSync(join(paths.root, ".git"))) {
    await git.raw(["init", "--quiet", "--initial-branch=main"]);
    done.push("made a git repository");
  }
  for (const dir of [QUESTIONS_DIR, JOBS_DIR]) {
    const full = join(paths.root, dir);
    if (!existsSync(full)) {
      mkdirSync(full, { recursive: true });
      writeFileSync(join(full, ".gitkeep"), "");
      done.push(`made ${dir}/`);
    }
  }
  const ignorePath = join(paths.root, ".gitignore");
  const ignore = existsSync(ignorePath) ? readFileSync(ignorePath, "utf8") : "";
  if (!ignore.split(/\r?\n/).includes(GITIGNORE_LINE)) {
    writeFileSync(
      ignorePath,
      `${ignore}${ignore && !ignore.endsWith("\n") ? "\n" : ""}${GITIGNORE_LINE}\n`,
    );
    done.push(`ignored ${GITIGNORE_LINE} in .gitignore`);
  }
  mkdirSync(paths.stateDir, { recursive: true });
  const box = openBox(paths.root, options);
  const status = await git.raw([
    "status",
    "--porcelain",
    "--",
    ".gitignore",
    QUESTIONS_DIR,
    JOBS_DIR,
  ]);
  if (status.trim() !== "") {
    await git.raw([
      "add",
      "--verbose",
      "--",
      ".gitignore",
      `${QUESTIONS_DIR}/.gitkeep`,
      `${JOBS_DIR}/.gitkeep`,
    ]);
    await commitAs(box, ["commit", "--quiet", "-m", "qbridge init: question box"]);
    done.push("committed the layout");
  }
  return done;
}

/**
 * Runs `git commit` (`args` from "commit" on) as the boxholder where git knows their name and
 * e-mail, else as qbridge: a fresh machine may have neither configured. Git decides, in the
 * commit itself (`user.useConfigOnly`: no guessing from the host name), so a commit costs no
 * extra git process; only a commit git refuses for want of an identity asks git which part it
 * lacks and is made again with qbridge's in its place, and that box's later commits use it
 * at once. (A refused commit changes nothing: git writes the commit only once it has its
 * author.)
 */
export async function commitAs(box: Box, args: string[]): Promise<string> {
  const fallback = fallbackIdentities.get(box);
  if (fallback) return box.git.raw([...(await fallback), ...args]);
  try {
    return await box.git.raw(["-c", "user.useConfigOnly=true", ...args]);
  } catch (error) {
    if (!IDENTITY_UNKNOWN.test((error as Error).message)) throw error;
    // Two commits refused at once ask git once.
    const asked = fallbackIdentities.get(box) ?? missingIdentity(box);
    fallbackIdentities.set(box, asked);
    return box.git.raw([...(await asked), ...args]);
  }
}

/** What git says when it has no name or e-mail to commit with (and may not guess them). */
const IDENTITY_UNKNOWN = /auto-detection is disabled|Please tell me who you are|empty ident name/;

/** qbridge's name and e-mail for whichever of the two git has not got configured. */
async function missingIdentity(box: Box): Promise<string[]> {
  const configured = async (key: string) =>
    // --default: an empty line when unset, not silence (simple-git waits 50 ms after a
    // command that prints nothing).
    (await box.git.raw(["config", "--default", "", "--get", key]).catch(() => "")).trim() !== "";
  const [name, email] = await Promise.all([configured("user.name"), configured("user.email")]);
  return [
    ...(name ? [] : ["-c", "user.name=qbridge"]),
    ...(email ? [] : ["-c", "user.email=qbridge@localhost"]),
  ];
}

const fallbackIdentities = new WeakMap<Box, Promise<string[]>>();
