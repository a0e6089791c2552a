// docxtemplater-image-module-free places the pictures: it adds the media part, the relationship
// and the content type, and expands the tag to its run (DOCX) or shape (PPTX). We supply the bytes
// and size, and replace three of its behaviours:
//   - file names: it always names media "*.png"; ours carry the real extension (png/jpeg/gif), so
//     the content type registered for the part matches its bytes;
//   - drawing XML: it gives every picture the same id, which Word and PowerPoint treat as damage;
//     ours are numbered from above the template's highest id;
//   - PPTX placement: the picture is fitted inside the placeholder shape's box and centred there.
import ImageModule from "docxtemplater-image-module-free";
import { fitImage } from "./images";
import type { PreparedImage, TemplateKind } from "./types";

export const IMAGE_MODULE_NAME = "open-xml-templating/docxtemplater-image-module";

/** One image tag occurrence: which image, and the widest it may be (EMU) where it stands. */
export interface ImageOccurrence {
  imageKey: string;
  maxWidth: number;
}

const NS_A = "http://schemas.openxmlformats.org/drawingml/2006/main";
const NS_PIC = "http://schemas.openxmlformats.org/drawingml/2006/picture";
const EMU_PER_PIXEL = 9525;

export function createImageModule(
  kind: TemplateKind,
  images: Map<string, PreparedImage>,
  occurrences: Map<string, ImageOccurrence>,
  nextId: () => number,
): ImageModule {
  const imageFor = (tagValue: string): PreparedImage => {
    const image = images.get(occurrences.get(tagValue)?.imageKey ?? "");
    if (!image) throw new Error(`No prepared image for ${tagValue}`);
    return image;
  };
  // The module asks for the bytes and then, synchronously, for a file name: remember the extension.
  let extension: PreparedImage["extension"] = "png";
  let count = 0;

  const module = new ImageModule({
    centered: false,
    getImage(tagValue) {
      const image = imageFor(tagValue);
      extension = image.extension;
      return image.data;
    },
    getSize(_data, tagValue) {
      const image = imageFor(tagValue);
      // DOCX: fit the width available where the tag stands. PPTX: natural size; fitted to the shape later.
      const { cx, cy } = kind === "docx" ? fitImage(image, occurrences.get(tagValue)!.maxWidth) : fitImage(image, Infinity);
      return [cx / EMU_PER_PIXEL, cy / EMU_PER_PIXEL];
    },
  });
  module.getNextImageName = () => `quire_image_${++count}.${extension}`;
  module.getRenderedPartDocx = (rId, [cx, cy]) => docxDrawing(rId, cx, cy, nextId());
  module.getRenderedPartPptx = (part, rId, [cx, cy]) => {
    const box = part.ext;
    const scale = box.cx > 1 && box.cy > 1 ? Math.min(1, box.cx / cx, box.cy / cy) : 1;
    const width = Math.max(1, Math.round(cx * scale));
    const height = Math.max(1, Math.round(cy * scale));
    const x = part.offset.x + (box.cx > 1 ? Math.round((box.cx - width) / 2) : 0);
    const y = part.offset.y + (box.cy > 1 ? Math.round((box.cy - height) / 2) : 0);
    return pptxPicture(rId, x, y, width, height, nextId());
  };
  return module;
}

function docxDrawing(rId: number, cx: number, cy: number, id: number): string {
  return (
    `<w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${cx}" cy="${cy}"/>` +
    `<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="${id}" name="Picture ${id}"/>` +
    `<wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a="${NS_A}" noChangeAspect="1"/></wp:cNvGraphicFramePr>` +
    `<a:graphic xmlns:a="${NS_A}"><a:graphicData uri="${NS_PIC}"><pic:pic xmlns:pic="${NS_PIC}">` +
    `<pic:nvPicPr><pic:cNvPr id="${id}" name="Picture ${id}"/><pic:cNvPicPr><a:picLocks noChangeAspect="1"/></pic:cNvPicPr></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="rId${rId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
    `</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>`
  );
}

function pptxPicture(rId: number, x: number, y: number, cx: number, cy: number, id: number): string {
  return (
    `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="Picture ${id}"/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr>` +
    `<p:blipFill><a:blip r:embed="rId${rId}"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>` +
    `<p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`
  );
}
