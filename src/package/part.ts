// One part of a multipart body: its head, read from its header fields, and its body, decoded from its
// Content-Transfer-Encoding (RFC 2045 6) as it streams, counted, and handed on while the handler wants it.
import { field, parseContentId, parseDisposition, parseMediaType, type HeaderField } from './headers.js';
import type { MultipartHandler, PartEnd, PartHead, Place } from './multipart.js';
import { decoderFor, type TransferDecoder } from './transfer.js';

export function partHead(index: number, fields: HeaderField[], at: Place): PartHead {
  const disposition = parseDisposition(field(fields, 'content-disposition'));
  const encoding = (field(fields, 'content-transfer-encoding') ?? '7bit').toLowerCase();
  const part: PartHead = { index, fields, contentType: parseMediaType(field(fields, 'content-type')), encoding, at };
  const id = parseContentId(field(fields, 'content-id'));
  if (id !== undefined) part.contentId = id;
  const location = field(fields, 'content-location');
  if (location !== undefined) part.location = location.replace(/\s+/g, '');
  if (disposition?.filename !== undefined) part.filename = disposition.filename;
  return part;
}

export class PartBody {
  private readonly decoder: TransferDecoder;
  /** The handler still wants the part's bytes. */
  private wanted = true;
  private encodedBytes = 0;
  private decodedBytes = 0;

  constructor(readonly head: PartHead, private readonly handler: MultipartHandler) {
    this.decoder = decoderFor(head.encoding);
  }

  /** Encoded bytes of the body, decoded and handed on (or only counted); false, with nothing decoded, once the body is longer than maxBytes. */
  add(data: Uint8Array, maxBytes: number): boolean {
    this.encodedBytes += data.length;
    if (this.encodedBytes > maxBytes) return false;
    if (this.wanted) {
      const decoded = this.decoder.push(data);
      if (decoded.length > 0) {
        this.decodedBytes += decoded.length;
        if (this.handler.partData(this.head, decoded) === false) this.wanted = false;
      }
    } else {
      this.decodedBytes += this.decoder.count(data);
    }
    return true;
  }

  /** The decoder's last bytes handed on; what the part came to. */
  end(closed: boolean): PartEnd {
    const { rest, problem } = this.decoder.end() as { rest: Uint8Array; problem?: 'truncated' | 'invalid-chars' };
    if (rest.length > 0) {
      this.decodedBytes += rest.length;
      if (this.wanted) this.handler.partData(this.head, rest);
    }
    const end: PartEnd = { encodedBytes: this.encodedBytes, decodedBytes: this.decodedBytes, closed };
    if (problem) end.problem = problem;
    return end;
  }
}
