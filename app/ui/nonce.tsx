import { createContext, useContext } from "react";

/** The per-request CSP nonce, provided by entry.server and read by <Scripts>. */
export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);
