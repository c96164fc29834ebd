/** Decoded pixels, four bytes a pixel (red, green, blue, alpha), rows top to bottom. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** An axis-aligned box in the pixels of the image it was found in. */
export interface PixelBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Samples `box` of `image` into a planar float tensor of `width` × `height` (blue, green, red
 * planes: the order PaddleOCR's models were trained on, from OpenCV), bilinear, each channel
 * mapped by (value / 255 − mean) / std, written at `offset` of `out` with `rowStride` floats
 * per row so a batch can be padded on the right. Linear in the output size.
 */
export function sampleInto(
  image: RgbaImage,
  box: PixelBox,
  target: { width: number; height: number; rowStride: number; offset: number; out: Float32Array },
  normal: { mean: readonly [number, number, number]; std: readonly [number, number, number] },
): void {
  const { width, height, rowStride, offset, out } = target;
  const plane = rowStride * height;
  const scaleX = (box.right - box.left) / width;
  const scaleY = (box.bottom - box.top) / height;
  const { data } = image;
  const maxX = image.width - 1;
  const maxY = image.height - 1;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(maxY, Math.max(0, box.top + (y + 0.5) * scaleY - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(maxY, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < width; x++) {
      const sx = Math.min(maxX, Math.max(0, box.left + (x + 0.5) * scaleX - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(maxX, x0 + 1);
      const fx = sx - x0;
      const a = (y0 * image.width + x0) * 4;
      const b = (y0 * image.width + x1) * 4;
      const c = (y1 * image.width + x0) * 4;
      const d = (y1 * image.width + x1) * 4;
      const at = offset + y * rowStride + x;
      // Channel 0 of the tensor is blue (RGBA byte 2), 1 green, 2 red.
      for (let channel = 0; channel < 3; channel++) {
        const byte = 2 - channel;
        const top = data[a + byte]! * (1 - fx) + data[b + byte]! * fx;
        const bottom = data[c + byte]! * (1 - fx) + data[d + byte]! * fx;
        const value = (top * (1 - fy) + bottom * fy) / 255;
        out[at + channel * plane] = (value - normal.mean[channel]!) / normal.std[channel]!;
      }
    }
  }
}

/** Alpha composited over white: a transparent PNG's text is dark on nothing, and should read as on paper. */
export function flattenOnWhite(image: RgbaImage): RgbaImage {
  const { data } = image;
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3]!;
    if (alpha === 255) continue;
    for (let c = 0; c < 3; c++) data[i + c] = Math.round((data[i + c]! * alpha + 255 * (255 - alpha)) / 255);
    data[i + 3] = 255;
  }
  return image;
}
