// Reads text on stdin, prints its o200k token count: what the read_page
// benchmark reports, as the targets were measured (gpt-tokenizer).
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { text += chunk; });
process.stdin.on('end', () => { process.stdout.write(`${encode(text).length}\n`); });
