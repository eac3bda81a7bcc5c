// People on a test surface, as a bridge shows them to the judge: the surface declares that its
// paired account, in a private chat, proves the boxholder (here the account a setting fixes),
// and a person is what the surface saw of them: their account, in a private chat.

import type { From, SurfaceDeclaration } from "../../src/slot/judge/proof.ts";

/** A chat surface whose boxholder is the account `owner`. */
export function chatSurface(name: string, owner = "ada"): SurfaceDeclaration {
  return { name, proves: "paired-account", fixedOwner: owner };
}

/** `person` writing in their private chat on `surface` (whose boxholder is `owner`). */
export function fromPerson(surface: string, person: string, owner = "ada"): From {
  return {
    surface: chatSurface(surface, owner),
    proof: { kind: "account", userId: person, chatId: person, privateChat: true },
  };
}
