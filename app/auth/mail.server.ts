import { createHash } from "node:crypto";
import { appendFileSync, chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** `<id@host>`: a retried send carries the same id, so it is recognised as the same message. */
  messageId?: string;
  headers?: Record<string, string>;
};
export type Mailer = (mail: Mail) => Promise<void>;

/**
 * SMTP when SMTP_URL is set. Otherwise the development outbox: the mail goes to the server log
 * and is appended to DATA_DIR/correo/<address>.txt, where the end-to-end tests read the link.
 * Like a mail store, it keeps one copy per Message-ID (ids/<sha256>.eml, written whole by a
 * rename): a send retried after a crash (same id) is counted in <sha256>.repetidos, not kept twice.
 * The outbox holds live sign-in links: only the server's user reads it (folders 0700, files 0600,
 * also those an older version left readable).
 */
export function createMailer(options: { smtpUrl?: string; from: string; outboxDir: string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return async (mail) => {
      await transport.sendMail({ from: options.from, ...mail });
    };
  }
  return async (mail) => {
    console.info(`[correo] Para: ${mail.to} · ${mail.subject}\n${mail.text}`);
    privateDir(options.outboxDir);
    const id = mail.messageId ? `Message-ID: ${mail.messageId}\n` : "";
    const message = `${id}Asunto: ${mail.subject}\n${mail.text}\n---\n`;
    if (mail.messageId) {
      const ids = path.join(options.outboxDir, "ids");
      privateDir(ids);
      const stored = path.join(ids, createHash("sha256").update(mail.messageId).digest("hex"));
      if (existsSync(`${stored}.eml`)) {
        appendFileSync(`${stored}.repetidos`, "1\n", { mode: PRIVATE_FILE });
        return;
      }
      writeFileSync(`${stored}.tmp`, `Para: ${mail.to}\n${message}`, { mode: PRIVATE_FILE });
      renameSync(`${stored}.tmp`, `${stored}.eml`);
    }
    const file = path.join(options.outboxDir, `${mail.to.toLowerCase().replace(/[^a-z0-9@._-]/g, "_")}.txt`);
    appendFileSync(file, message, { mode: PRIVATE_FILE });
    chmodSync(file, PRIVATE_FILE);
  };
}

const PRIVATE_FILE = 0o600;
function privateDir(dir: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}
