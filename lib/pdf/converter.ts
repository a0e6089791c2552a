// PDF conversion sits behind one interface: local LibreOffice by default, Gotenberg when
// GOTENBERG_URL is set. Until conversion is implemented, health reports it "unavailable".
import { getConfig } from "@/lib/config";

export type ConverterStatus = "ok" | "unavailable";

export interface PdfConverterInfo {
  kind: "libreoffice" | "gotenberg";
  status: ConverterStatus;
}

export async function pdfConverterInfo(): Promise<PdfConverterInfo> {
  return { kind: getConfig().pdfConverter.kind, status: "unavailable" };
}
