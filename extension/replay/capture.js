// Captures the document of the world's frame in the wire form and answers
// "j" + the wire JSON, or, from compressAbove UTF-16 code units on, "z" + the
// gzipped wire JSON in base64 (the browser compresses natively, and a large
// screen moves through the protocol about seven times smaller). Null when the
// page model is missing or older than replay needs.
(async function captureCompressed(/** @type {number} */ version, /** @type {number} */ compressAbove, /** @type {CaptureOptions} */ opts = {}) {
  const pm = /** @type {{__trailpinPageModel?: TrailpinPageModel}} */ (/** @type {unknown} */ (globalThis)).__trailpinPageModel;
  if (!pm || pm.version < version)
    return null;
  const json = pm.captureWire(opts);
  if (json.length < compressAbove || typeof CompressionStream !== 'function')
    return 'j' + json;
  const zipped = new Blob([json]).stream().pipeThrough(new CompressionStream('gzip'));
  const bytes = new Uint8Array(await new Response(zipped).arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    bin += String.fromCharCode.apply(null, /** @type {number[]} */ (/** @type {unknown} */ (bytes.subarray(i, i + 0x8000))));
  return 'z' + btoa(bin);
})
