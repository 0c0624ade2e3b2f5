import type { Writable } from 'node:stream';

/** The batches of an export job as one iterator, so a writer can look at the first before the rest. */
export function batchesOf<T>(rows: AsyncIterable<T[]>): AsyncIterator<T[]> {
  return rows[Symbol.asyncIterator]();
}

/** One turn of the event loop: lets zlib and the pipes move what a batch produced before the next. */
export function letStreamsFlow(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits while `stream` holds more than its high-water mark (the reader is slower than the writer).
 * Rejects when the stream is closed or fails meanwhile, so the writer stops reading rows.
 */
export function waitForDrain(stream: Writable): Promise<void> {
  if (stream.destroyed) return Promise.reject(new Error('export stream closed'));
  if (!stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
      stream.off('error', onError);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error('export stream closed'));
    const onError = (error: Error) => done(error);
    stream.on('drain', onDrain);
    stream.on('close', onClose);
    stream.on('error', onError);
  });
}
