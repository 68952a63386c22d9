import zlib from 'node:zlib';

export interface ZipFile {
  name: string;
  data: string | Buffer;
  /** Deflate the data (default: stored). */
  deflate?: boolean;
}

/** A zip archive built byte by byte, so tests can state good archives and deliberately bad ones. */
export function buildZip(files: readonly ZipFile[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const raw = Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data);
    const body = file.deflate === true ? zlib.deflateRawSync(raw) : raw;
    const name = Buffer.from(file.name, 'utf8');
    const method = file.deflate === true ? 8 : 0;
    const crc = zlib.crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A small valid extension: an index page and a deflated script. */
export function extensionZip(): Buffer {
  return buildZip([
    { name: 'index.html', data: '<!doctype html><title>Ext</title><script src="app.js"></script>' },
    { name: 'app.js', data: 'console.log("hello from the extension");\n'.repeat(20), deflate: true },
  ]);
}
