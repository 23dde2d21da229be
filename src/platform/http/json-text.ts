// What JSON.parse lets through silently, checked on the body's bytes and text: bytes that are not
// UTF-8 (decoded as U+FFFD and stored so), and a key given twice in one object (the last one wins,
// so a check that reads the first and a service that reads the last could disagree).

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The body's text, or undefined when its bytes are not UTF-8. */
export function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

const pointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * The path (`/body/...`) of the first key that appears twice in one object, or undefined. Runs on
 * text JSON.parse has accepted, so it only follows structure: strings (their escapes decoded, so
 * `"a"` and `"\u0061"` are the same key), objects and arrays. No recursion.
 */
export function duplicateKeyPath(text: string): string | undefined {
  // One frame per open object or array: the keys seen (objects), the path, the key being read.
  const frames: { keys: Set<string> | undefined; path: string; expectKey: boolean; index: number }[] = [];
  let pendingKey: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const top = frames[frames.length - 1];
    if (ch === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return `${top.path}/${pointer(key)}`;
        top.keys.add(key);
        pendingKey = key;
        top.expectKey = false;
      }
      i = end;
    } else if (ch === "{" || ch === "[") {
      const path = !top
        ? "/body"
        : top.keys
          ? `${top.path}/${pointer(pendingKey ?? "")}`
          : `${top.path}/${top.index}`;
      frames.push({ keys: ch === "{" ? new Set() : undefined, path, expectKey: ch === "{", index: 0 });
    } else if (ch === "}" || ch === "]") {
      frames.pop();
    } else if (ch === "," && top) {
      if (top.keys) top.expectKey = true;
      else top.index++;
    }
  }
  return undefined;
}
