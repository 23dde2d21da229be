import { crc32, deflateSync } from "node:zlib";
import type { TestApp } from "./app.ts";
import type { Answer } from "./http.ts";

/** A real PNG (`size` px square, one colour) that a browser decodes: for icon uploads. */
export function png(size = 8, rgb: [number, number, number] = [11, 122, 117]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The first bytes of a JPEG (SOI, then a JFIF APP0 marker): enough for the signature check. */
export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

/** A RIFF container announcing WebP. */
export const WEBP = Buffer.concat([
  Buffer.from("RIFF", "ascii"),
  Buffer.from([0x1a, 0, 0, 0]),
  Buffer.from("WEBPVP8L", "ascii"),
  Buffer.alloc(14),
]);

/** An SVG that would run script if it were ever served as a document. */
export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>',
);

/** `PUT /apps/{app_id}/icon` with `bytes` as the body, declared as `type`. */
export async function uploadIcon(
  t: TestApp,
  token: string | undefined,
  appId: string,
  type: string,
  bytes: Buffer,
): Promise<Answer> {
  const response = await t.app.inject({
    method: "PUT",
    url: `/apps/${appId}/icon`,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": type },
    payload: bytes,
  });
  let body: unknown = response.body;
  try {
    body = JSON.parse(response.body);
  } catch {}
  return { status: response.statusCode, body, headers: response.headers, text: response.body };
}

/** `GET` a path with no credential, answering the bytes. */
export async function getBytes(t: TestApp, url: string) {
  const response = await t.app.inject({ method: "GET", url });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
}
