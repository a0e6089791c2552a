import { fileByLink } from "@/lib/esign/file-links";
import { esignDeps } from "@/lib/esign/service";
import { attachment, inline } from "@/lib/http/download";
import { publicRoute } from "@/lib/http/api-route";
import { errorResponse } from "@/lib/http/errors";
import { signingOperations } from "@/lib/esign/operations";

// Keyless: the signed, short-lived token is the credential (a JSON download's downloadUrl, a review's previewUrl).
export const GET = publicRoute(
  signingOperations.getLinkedFile,
  async function GET(_req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
    try {
      const file = await fileByLink(await esignDeps(), (await params).token);
      return (file.purpose === "preview" ? inline : attachment)(file.data, "application/pdf", file.fileName);
    } catch (err) {
      return errorResponse(err, "signing");
    }
  },
);
