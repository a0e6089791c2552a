// The package ships no types. Only the parts we use are declared.
declare module "docxtemplater-image-module-free" {
  interface ImageModuleOptions {
    centered?: boolean;
    getImage(tagValue: string, tagName: string): Buffer;
    /** [width, height] in pixels; the module converts to EMU at 9525 EMU per pixel. */
    getSize(image: Buffer, tagValue: string, tagName: string): [number, number];
  }
  interface PptxImagePart {
    offset: { x: number; y: number };
    ext: { cx: number; cy: number };
  }
  class ImageModule {
    constructor(options: ImageModuleOptions);
    name: string;
    getNextImageName(): string;
    getRenderedPartDocx(rId: number, size: [number, number], centered: boolean): string;
    getRenderedPartPptx(part: PptxImagePart, rId: number, size: [number, number], centered: boolean): string;
  }
  export = ImageModule;
}
