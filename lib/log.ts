// Structured JSON logs. Secrets are redacted by path so a careless `log.info({ req })` cannot leak them.
import pino from "pino";

export const log = pino({
  level: process.env.LOG_LEVEL ?? "info",
  base: { service: "quire" },
  redact: {
    paths: [
      "authorization",
      "*.authorization",
      "headers.authorization",
      "*.headers.authorization",
      "password",
      "*.password",
      "apiKey",
      "*.apiKey",
      "secret",
      "*.secret",
      "passwordHash",
      "*.passwordHash",
    ],
    censor: "[redacted]",
  },
});
