/** SimSift's version, as recorded in exported files (kept equal to package.json's by a unit test). */
export const SIMSIFT_VERSION = '0.1.0';
