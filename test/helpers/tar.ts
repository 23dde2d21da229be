// A tar archive (ustar, as PGlite's `dumpDataDir` writes it) with one file cut short: the test
// database's dump keeps only the WAL pages PostgreSQL needs (database.ts). Each entry is a
// 512-byte header (name at 0 and its prefix at 345, size in octal at 124, a checksum at 148 over
// the header with that field read as spaces) followed by the data, padded to 512 bytes.

const BLOCK = 512;
const decoder = new TextDecoder();

function field(header: Uint8Array, offset: number, length: number): string {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

function nameOf(header: Uint8Array): string {
  const prefix = field(header, 345, 155);
  const name = field(header, 0, 100);
  return prefix ? `${prefix}/${name}` : name;
}

function writeOctal(header: Uint8Array, offset: number, length: number, value: number) {
  const text = `${value.toString(8).padStart(length - 1, "0")}\0`;
  for (let i = 0; i < length; i++) header[offset + i] = text.charCodeAt(i);
}

function seal(header: Uint8Array) {
  header.fill(0x20, 148, 156);
  const sum = header.reduce((total, byte) => total + byte, 0);
  const text = `${sum.toString(8).padStart(6, "0")}\0 `;
  for (let i = 0; i < 8; i++) header[148 + i] = text.charCodeAt(i);
}

/**
 * `archive` with the file whose path ends in `suffix` cut to its first `bytes` bytes. Throws when
 * no entry matches or it is already shorter: the caller's idea of the archive is then wrong.
 */
export function truncatedTarEntry(archive: Uint8Array, suffix: string, bytes: number): Uint8Array {
  const out = new Uint8Array(archive.length);
  let read = 0;
  let written = 0;
  let found = false;
  while (read + BLOCK <= archive.length) {
    const header = archive.slice(read, read + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || "0", 8);
    let keep = size;
    if (nameOf(header).endsWith(suffix)) {
      if (size < bytes) throw new Error(`${suffix} is ${size} bytes, fewer than the ${bytes} to keep`);
      keep = bytes;
      found = true;
      writeOctal(header, 124, 12, keep);
      seal(header);
    }
    out.set(header, written);
    out.set(archive.subarray(read + BLOCK, read + BLOCK + keep), written + BLOCK);
    read += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    written += BLOCK + Math.ceil(keep / BLOCK) * BLOCK;
  }
  if (!found) throw new Error(`no entry ending in ${suffix} in the archive`);
  // Two empty blocks end an archive (the rest of `out` is zeros).
  return out.subarray(0, written + 2 * BLOCK);
}
