/**
 * Tokens of an image block in a tool result (a Read of a screenshot, an MCP tool's image): Claude Code
 * records no count for it, so it is estimated as Anthropic's vision documentation does, width × height /
 * 750 tokens, an image past 1.15 megapixels (or 1,568 px on its long edge) being scaled down first, so at
 * most IMAGE_TOKENS_MAX. The size is read from a base64 PNG's header; of any other image (JPEG, GIF, WebP,
 * a URL) it is not, and the estimate is IMAGE_TOKENS_MAX (an upper bound). Only context estimates rest on
 * it (a tool result's tokens); recorded money is each call's usage as logged, never this.
 */
import { isJsonObject } from '../common/jsonValue.js';

/** Anthropic's estimate for an image at its largest size before scaling (~1092 × 1092 px, 1,590 tokens), rounded up. */
export const IMAGE_TOKENS_MAX = 1600;
/** Pixels per token (Anthropic: tokens = width × height / 750). */
const PIXELS_PER_TOKEN = 750;
/** The PNG signature and IHDR start: width at bytes 16–19, height at 20–23. */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Base64 characters enough for the first 24 bytes. */
const PNG_HEAD_CHARS = 32;

/** Width and height of a base64 PNG, from its header; undefined for anything else. */
function pngSize(data: string): { width: number; height: number } | undefined {
  let head: Uint8Array;
  try {
    head = Uint8Array.from(atob(data.slice(0, PNG_HEAD_CHARS)), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  if (head.length < 24 || PNG_SIGNATURE.some((byte, i) => head[i] !== byte)) return undefined;
  const view = new DataView(head.buffer);
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** The estimated tokens of one image block (see the module comment). */
export function imageBlockTokens(block: Record<string, unknown>): number {
  const source = isJsonObject(block.source) ? block.source : undefined;
  const size = source && source.type === 'base64' && typeof source.data === 'string' ? pngSize(source.data) : undefined;
  if (size === undefined) return IMAGE_TOKENS_MAX;
  return Math.min(IMAGE_TOKENS_MAX, Math.ceil((size.width * size.height) / PIXELS_PER_TOKEN));
}

/** The image blocks of a tool result's content (a list; a part's own `content` list too): how many, and their estimated tokens. */
export function imagesOf(content: unknown): { images: number; tokens: number } {
  const found = { images: 0, tokens: 0 };
  if (!Array.isArray(content)) return found;
  for (const part of content) {
    if (!isJsonObject(part)) continue;
    if (part.type === 'image') {
      found.images += 1;
      found.tokens += imageBlockTokens(part);
    } else if (Array.isArray(part.content)) {
      const nested = imagesOf(part.content);
      found.images += nested.images;
      found.tokens += nested.tokens;
    }
  }
  return found;
}
