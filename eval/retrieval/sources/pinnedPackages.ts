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
  'apache2-doc': {
    version: '2.4.68-1~deb12u1',
    sha256: 'cee8fe80ffb5de2744cd690c3d795b489e43a1c44c4e3a634c521642f22d7835',
  },
  'bash-doc': { version: '5.2.15-2', sha256: '2c1a353f7004d14ba81db19c253b958d2dd9582027650739c530fd50376a9d8b' },
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
  'git-doc': {
    version: '1:2.39.5-0+deb12u3',
    sha256: '3c89668a11053a6bafade3de1f611f4613db31e082af63f43d8c5b69ad8795ec',
  },
  'installation-guide-amd64': {
    version: '20230508+deb12u1',
    sha256: '812c43e1dc906daf671e3efe953dc023205c238e5bd5a3021ce4ca142793573a',
  },
  'kicad-doc-zh': {
    version: '6.0.11+dfsg-1',
    sha256: 'c904386f9152d1acb79aec9a85bdaec1e9901ade73a296b44b5e84763eedf245',
  },
  'libreoffice-help-zh-cn': {
    version: '4:7.4.7-1+deb12u14',
    sha256: 'db867cdece4c2f9c7eebe65e519c6cf386fdcf49d6e061db3dffec893b3e1dee',
  },
  'maint-guide': { version: '1.2.53', sha256: '762c8a400a36668d2eb814a3ba356b06488fd889dfce478eb11d5cfb189a47b5' },
  'maint-guide-zh-cn': {
    version: '1.2.53',
    sha256: 'd605b60a034f63857bc44205aed5ad7ba6e17d0d2b1ba5e79179b4e7ec4ee4bc',
  },
  'manpages-zh': { version: '1.6.4.0-1', sha256: '81bae29495f6445db290e3f329f1203eb19b651c2a7ea165b74ebdc853a32ac1' },
  'octave-doc': { version: '7.3.0-2', sha256: 'b27897cc7e3d688daa5cb8f8d1ea47077f3fbd205ce32e22522200ff0c1eadd5' },
  'postgresql-doc-15': {
    version: '15.20-0+deb12u1',
    sha256: '4c44bf2c599f208b3f46454a6cf7a72e25ec46ff74d37b59dd31ad76b00eebb7',
  },
  'r-doc-pdf': {
    version: '4.2.2.20221110-2',
    sha256: 'beb104ad5818d261f280a868294645ca31d7c63365f2c9a55aa3ca9aad5aa71d',
  },
  'sqlite3-doc': {
    version: '3.40.1-2+deb12u2',
    sha256: '466e30d7066e2641fa13e56bc662a2ad521b8cc9c17dde9c9dac3d4f105e32f2',
  },
};
