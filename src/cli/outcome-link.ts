// The signed link an outcome carries (show, wait, withdraw), when QBRIDGE_PUBLIC_URL is set.

import type { Config } from "../config.ts";
import type { Core } from "../questions/core.ts";
import type { OutcomeLink } from "../questions/outcome.ts";
import { linkSecretIfAny } from "../web/link-secret.ts";
import { linkUrl, loadSecret } from "../web/links.ts";

/** A fresh signed link per outcome, when QBRIDGE_PUBLIC_URL is set. */
export async function outcomeLink(core: Core, config: Config): Promise<OutcomeLink | undefined> {
  const publicUrl = config.web.publicUrl;
  if (!publicUrl) return undefined;
  const secret = linkSecretIfAny(() => loadSecret(core.box));
  // A read-only box never served has no key: the outcome goes without a link.
  if (!secret) return undefined;
  // Handed to an asker: the page shows the question and answers nothing.
  return (id) => linkUrl(publicUrl, secret, { question: id, role: "asker" }, core.box.clock.now());
}
