/**
 * Every Debian package the retrieval eval reads, pinned by version and by the sha256 of its .deb:
 * a figure in bench-results/retrieval.json is about these exact bytes. Bumping a pin (a point
 * release replaces a package in the archive) changes the corpus, so the labels are re-checked
 * (labels.ts) on the next run and any quote the new text lost stops the run.
 */
export interface PinnedPackage {
  version: string;
  sha256: string;
}

export const PINNED_PACKAGES: Readonly<Record<string, PinnedPackage>> = {
  'debian-faq': { version: '11.1', sha256: '427426e0cfa6888622fc1d72631071cb4b5a1f86ccde722e7820bcef284de5d0' },
  'debian-faq-zh-cn': {
    version: '11.1',
    sha256: '3545356b1aa04d87e91dd15e8406210cf5b4f476662e597897bcb42234591758',
  },
  'debian-reference-en': {
    version: '2.100',
    sha256: '9f31d3a17df505de09689ca255512ea58c1fc47c59bb1b0c7bf1c23362e9743f',
  },
  'debian-reference-zh-cn': {
    version: '2.100',
    sha256: '6d2d8d9a646397e28b04cdff23d2e4374101ebf9be348e35961af62c8a2d0977',
  },
  'debmake-doc': { version: '1.17-7', sha256: 'f562cf744d906b9255c60d659873609ed5f40d657d99c4a6f3f5c194c24507cf' },
  'distro-info-data': {
    version: '0.58+deb12u7',
    sha256: 'f015ac6966bea87484ef4f98a15077e46b410c0b3985ba55b428235cdb46663f',
  },
  'installation-guide-amd64': {
    version: '20230508+deb12u1',
    sha256: '812c43e1dc906daf671e3efe953dc023205c238e5bd5a3021ce4ca142793573a',
  },
  'maint-guide': { version: '1.2.53', sha256: '762c8a400a36668d2eb814a3ba356b06488fd889dfce478eb11d5cfb189a47b5' },
  'maint-guide-zh-cn': {
    version: '1.2.53',
    sha256: 'd605b60a034f63857bc44205aed5ad7ba6e17d0d2b1ba5e79179b4e7ec4ee4bc',
  },
  'postgresql-doc-15': {
    version: '15.20-0+deb12u1',
    sha256: '4c44bf2c599f208b3f46454a6cf7a72e25ec46ff74d37b59dd31ad76b00eebb7',
  },
  'r-doc-pdf': {
    version: '4.2.2.20221110-2',
    sha256: 'beb104ad5818d261f280a868294645ca31d7c63365f2c9a55aa3ca9aad5aa71d',
  },
};
