// The conformance stories (stories.ts) on the e-mail bridge, on one Dovecot and one outgoing
// server: each pick a reply delivered into the mailbox.

import { afterEach, describe } from "vitest";
import { cleanupBoxes } from "../support/box.ts";
import { useMailServers } from "../support/dovecot.ts";
import { emailDriver } from "./drivers/email.ts";
import { conformance } from "./stories.ts";

const servers = useMailServers();
afterEach(cleanupBoxes);

describe("e-mail, replying", () => conformance(emailDriver(servers)));
