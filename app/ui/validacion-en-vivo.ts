/**
 * What the browser needs to validate forms as you type: zod and Conform's zod adapter. Loaded
 * by ui/forms.tsx once the page works, not with it (ADR 0008); the server validates every post
 * anyway, so until then (and without JavaScript) nothing is lost.
 */
export * as z from "zod";
export { parseWithZod } from "@conform-to/zod/v4";
