import fs from 'node:fs';

/**
 * A PEM file named by a setting (a CA bundle, a client certificate), read at start-up so a wrong
 * path or a file that is not PEM fails the process with the setting's name, not at the first
 * connection with a TLS library's message. Only the path is ever reported, never the content.
 */
export function readPemFile(filePath: string, setting: string): string {
  let text: string;
  try {
    text = fs.readFileSync(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`${setting}: cannot read ${filePath} (${code})`);
  }
  if (!/-----BEGIN [A-Z0-9 ]+-----/.test(text)) throw new Error(`${setting}: ${filePath} holds no PEM block`);
  return text;
}
