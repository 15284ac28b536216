// The Node edge of job packages (import 'jdf-filespec/packages'): files on disk, pack and unpack.
export { fileAccess, packageKindOf, validatePackageFile, checkContainerMembers } from './package-read.js';
export { packJob, type PackOptions, type PackResult, type PackedFile, type PackProblem } from './package-pack.js';
export { unpackPackage, safeSegment, type UnpackResult, type UnpackedPart } from './package-unpack.js';
