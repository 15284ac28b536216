// jdf-filespec to-path and from-path.
import { fileUrlToPath, pathToFileUrl, PathConversionError, type PathPlatform, type UrlForm } from '../paths/convert.js';
import { EXIT } from './define.js';

/** Prints a conversion, or why it is impossible (exit 1: the input is fine as input, it just names no path there). */
function convertPath(convert: () => string): number {
  try {
    process.stdout.write(convert() + '\n');
    return EXIT.clean;
  } catch (error) {
    if (!(error instanceof PathConversionError)) throw error;
    process.stderr.write(`jdf-filespec: ${error.message} (${error.code})\n`);
    return EXIT.findings;
  }
}

export async function runToPath(url: string, platform: PathPlatform): Promise<number> {
  return convertPath(() => fileUrlToPath(url, { platform }));
}

export async function runFromPath(path: string, platform: PathPlatform, form: UrlForm): Promise<number> {
  return convertPath(() => pathToFileUrl(path, { platform, form }));
}
