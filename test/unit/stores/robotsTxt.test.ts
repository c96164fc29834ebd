import { parseRobots, robotsAllow } from '../../../stores/sources/robotsTxt';

// robots.txt as RFC 9309 reads it: the group for sluice (else *), longest match, Allow wins a tie.

const allowed = (robots: string, url: string) => robotsAllow(parseRobots(robots), new URL(url, 'https://site.test'));

describe('robots.txt', () => {
  it('takes the group naming sluice over the * group, and merges groups of the same agent', () => {
    const robots =
      'User-agent: *\nDisallow: /\n\nUser-agent: Sluice\nDisallow: /a\n\nUser-agent: sluice\nDisallow: /b\n';
    expect(allowed(robots, '/c')).toBe(true);
    expect(allowed(robots, '/a/x')).toBe(false);
    expect(allowed(robots, '/b')).toBe(false);
  });

  it('shares a group between consecutive user-agent lines; comments and unknown lines are ignored', () => {
    const robots = '# site rules\nUser-agent: other\nUser-agent: *\nCrawl-delay: 5\nDisallow: /private # keep out\n';
    expect(allowed(robots, '/private/x')).toBe(false);
    expect(allowed(robots, '/public')).toBe(true);
  });

  it('lets the longest matching rule decide, Allow winning a tie', () => {
    const robots = 'User-agent: *\nDisallow: /docs/\nAllow: /docs/public/\nDisallow: /same\nAllow: /same\n';
    expect(allowed(robots, '/docs/x')).toBe(false);
    expect(allowed(robots, '/docs/public/x')).toBe(true);
    expect(allowed(robots, '/same')).toBe(true);
  });

  it('reads * as any characters and a final $ as the end, the query included', () => {
    const robots = 'User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?print=\n';
    expect(allowed(robots, '/a/b.pdf')).toBe(false);
    expect(allowed(robots, '/a/b.pdf.html')).toBe(true);
    expect(allowed(robots, '/page?print=1')).toBe(false);
    expect(allowed(robots, '/page?x=1')).toBe(true);
  });

  it('allows everything with no rules, an empty Disallow, and always /robots.txt itself', () => {
    expect(allowed('', '/x')).toBe(true);
    expect(allowed('User-agent: *\nDisallow:\n', '/x')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /\n', '/robots.txt')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /\n', '/x')).toBe(false);
  });
});
