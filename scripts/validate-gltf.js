// Runs the Khronos glTF validator (npm gltf-validator, installed by scripts/setup) over .glb/.gltf files:
// one line per file with its error and warning counts, the first messages of any file with errors, and exit
// status 1 when some file has an error. Usage: node scripts/validate-gltf.js FILE...
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

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
    for (const m of i.messages.filter((m) => m.severity <= 1).slice(0, 5))
        console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer || ''}: ${m.message}`);
    return i.numErrors;
}

(async () => {
    let failed = 0;
    for (const file of process.argv.slice(2)) if ((await check(file)) !== 0) ++failed;
    console.log(`validate-gltf: ${process.argv.length - 2} file(s), ${failed} with errors`);
    process.exit(failed === 0 ? 0 : 1);
})().catch((e) => {
    console.error(`validate-gltf: ${e}`);
    process.exit(2);
});
