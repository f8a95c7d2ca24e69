/**
 * Decodes a PNG in a Chromium page (via <img> and a canvas) and counts its pixels: those that are not
 * near-white, and those that differ from the top-left (background) pixel by more than 8 in any channel.
 * A blank export has neither.
 */
export interface PngPixels {
  width: number;
  height: number;
  nonWhite: number;
  differing: number;
}

interface PageLike {
  goto(url: string): Promise<unknown>;
  setContent(html: string): Promise<void>;
  evaluate<R, A>(fn: (arg: A) => Promise<R>, arg: A): Promise<R>;
}

export async function pngPixels(page: PageLike, png: Buffer): Promise<PngPixels> {
  await page.goto('about:blank');
  await page.setContent('<canvas id="c"></canvas>');
  return page.evaluate(async (b64: string) => {
    const g = globalThis as unknown as {
      Image: new () => { src: string; decode(): Promise<void>; width: number; height: number };
      document: { getElementById(id: string): { width: number; height: number; getContext(k: string): { drawImage(i: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } } };
    };
    const img = new g.Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = g.document.getElementById('c');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, img.width, img.height);
    const [r0, g0, b0] = [data[0]!, data[1]!, data[2]!];
    let nonWhite = 0;
    let differing = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i]! < 250 || data[i + 1]! < 250 || data[i + 2]! < 250) nonWhite++;
      if (Math.abs(data[i]! - r0) > 8 || Math.abs(data[i + 1]! - g0) > 8 || Math.abs(data[i + 2]! - b0) > 8) differing++;
    }
    return { width: img.width, height: img.height, nonWhite, differing };
  }, png.toString('base64'));
}
