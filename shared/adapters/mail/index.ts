import { createTransport } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Outgoing email (invitations, password resets): SMTP through nodemailer when SMTP_URL is set
 * (`smtp://user:pass@host:587`, `smtps://…`); otherwise none, and the links are only returned in
 * the API's answers.
 */
export interface Mailer {
  readonly enabled: boolean;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailer(config: { smtpUrl?: string; mailFrom: string }): Mailer {
  if (!config.smtpUrl) {
    return {
      enabled: false,
      send: async () => {},
      close: () => {},
    };
  }
  const transport = createTransport(config.smtpUrl);
  return {
    enabled: true,
    async send(message) {
      await transport.sendMail({ from: config.mailFrom, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}
