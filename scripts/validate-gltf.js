// Runs the Khronos glTF validator (npm gltf-validator, installed by scripts/setup) over .glb/.gltf files:
// one line per file with its error and warning counts, the first messages of any file with errors, and exit
// status 1 when some file has an error. Usage: node scripts/validate-gltf.js [--verbose] FILE...
// (--verbose: infos and hints too, up to 20 messages per file)
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

const verbose = process.argv[2] === '--verbose';
const files = process.argv.slice(verbose ? 3 : 2);

async function check(file) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
        uri: file,
        maxIssues: 20,
        externalResourceFunction: (uri) =>
            new Promise((resolve, reject) => {
                const target = path.resolve(path.dirname(file), decodeURIComponent(uri));
                fs.readFile(target, (err, data) => (err ? reject(err.toString()) : resolve(new Uint8Array(data))));
            }),
    });
    const i = report.issues;
    console.log(`${file}: errors ${i.numErrors}, warnings ${i.numWarnings}, infos ${i.numInfos}`);
    for (const m of i.messages.filter((m) => m.severity <= (verbose ? 3 : 1)).slice(0, verbose ? 20 : 5))
        console.log(`  ${['error', 'warning', 'info', 'hint'][m.severity]} ${m.code} ${m.pointer || ''}: ${m.message}`);
    return i.numErrors;
}

(async () => {
    let failed = 0;
    for (const file of files) if ((await check(file)) !== 0) ++failed;
    console.log(`validate-gltf: ${files.length} file(s), ${failed} with errors`);
    process.exit(failed === 0 ? 0 : 1);
})().catch((e) => {
    console.error(`validate-gltf: ${e}`);
    process.exit(2);
});
