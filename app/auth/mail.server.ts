import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";

export type Mail = { to: string; subject: string; text: string };
export type Mailer = (mail: Mail) => Promise<void>;

/**
 * SMTP when SMTP_URL is set. Otherwise the development outbox: the mail goes to the server log
 * and is appended to DATA_DIR/correo/<address>.txt, where the end-to-end tests read the link.
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
    mkdirSync(options.outboxDir, { recursive: true });
    const file = path.join(options.outboxDir, `${mail.to.toLowerCase().replace(/[^a-z0-9@._-]/g, "_")}.txt`);
    appendFileSync(file, `Asunto: ${mail.subject}\n${mail.text}\n---\n`);
  };
}
