// Variables that carry only an aiPrompt get their text from an OpenAI-compatible
// chat-completions endpoint, when one is configured (AI_BASE_URL, AI_API_KEY, AI_MODEL).
import { UnavailableError, ValidationError } from "@/lib/errors";

export interface AiProvider {
  baseUrl: string;
  apiKey: string;
  model: string;
}

export type PromptAnswerer = (prompt: string, signal?: AbortSignal) => Promise<string>;

export function openAiCompatible(provider: AiProvider): PromptAnswerer {
  return async (prompt, signal) => {
    const res = await fetch(`${provider.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {}) },
      body: JSON.stringify({ model: provider.model, messages: [{ role: "user", content: prompt }] }),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(60_000)]) : AbortSignal.timeout(60_000),
    }).catch((err: Error) => {
      throw new UnavailableError(`The AI provider could not be reached: ${err.message}`, "AiProviderUnavailable");
    });
    if (!res.ok) throw new UnavailableError(`The AI provider answered HTTP ${res.status}`, "AiProviderUnavailable");
    const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    const text = body.choices?.[0]?.message?.content;
    if (typeof text !== "string") throw new UnavailableError("The AI provider's answer had no text", "AiProviderUnavailable");
    return text.trim();
  };
}

interface PromptedVariable {
  placeholder: string;
  text?: string;
  value?: string;
  isDisabled?: boolean;
  variableStack?: unknown;
  aiPrompt?: string;
}

/** Fills `text` from the prompt for every variable whose only source of text is its aiPrompt. */
export async function answerPrompts<V extends PromptedVariable>(variables: V[], answer: PromptAnswerer | null, signal?: AbortSignal): Promise<V[]> {
  const needing = variables.filter((v) => !v.isDisabled && !v.variableStack && !v.text && !v.value && v.aiPrompt);
  if (needing.length === 0) return variables;
  if (!answer) {
    throw new ValidationError(
      `No AI provider is configured, so these variables have no text: ${needing.map((v) => v.placeholder).join(", ")}. Give them a text, or configure AI_BASE_URL and AI_MODEL.`,
      needing.map((v) => ({ field: `variables[${v.placeholder}].text`, message: "required when no AI provider is configured" })),
      "AiProviderNotConfigured",
    );
  }
  const answers = new Map<V, string>();
  for (const v of needing) answers.set(v, await answer(v.aiPrompt as string, signal));
  return variables.map((v) => (answers.has(v) ? { ...v, text: answers.get(v) } : v));
}
