/** Small real PNG images for tests (a tenant's logo), encoded here so no image file is checked in. */
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG of `width`×`height`, each pixel from `pixel(x, y)` as [r, g, b, a]. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), y * (width * 4 + 1) + 1 + x * 4);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/** A logo-like mark: a teal rounded square with a white ring, on a transparent background. */
export function logoPng(size = 96): Buffer {
  const centre = (size - 1) / 2;
  return encodePng(size, size, (x, y) => {
    const corner = size * 0.2;
    const dx = Math.max(0, Math.abs(x - centre) - (centre - corner));
    const dy = Math.max(0, Math.abs(y - centre) - (centre - corner));
    if (Math.hypot(dx, dy) > corner) return [0, 0, 0, 0];
    const r = Math.hypot(x - centre, y - centre) / size;
    return r > 0.18 && r < 0.3 ? [255, 255, 255, 255] : [13, 148, 136, 255];
  });
}
