/**
 * Function words that carry no topic: they would dominate term frequencies and match every
 * chunk. Kept short on purpose: a missing stop word costs a little ranking noise, a wrong one
 * makes a real query term unsearchable. Entries are in tokenize()'s normal form (NFKC, lower case).
 */
const ENGLISH = [
  'a', 'about', 'above', 'after', 'again', 'against', 'all', 'am', 'an', 'and', 'any', 'are', 'as',
  'at', 'be', 'because', 'been', 'before', 'being', 'below', 'between', 'both', 'but', 'by', 'can',
  'could', 'did', 'do', 'does', 'doing', 'down', 'during', 'each', 'few', 'for', 'from', 'further',
  'had', 'has', 'have', 'having', 'he', 'her', 'here', 'hers', 'herself', 'him', 'himself', 'his',
  'how', 'i', 'if', 'in', 'into', 'is', 'it', "it's", 'its', 'itself', 'just', 'me', 'more', 'most',
  'my', 'myself', 'no', 'nor', 'not', 'now', 'of', 'off', 'on', 'once', 'only', 'or', 'other', 'our',
  'ours', 'ourselves', 'out', 'over', 'own', 'same', 'she', 'should', 'so', 'some', 'such', 'than',
  'that', 'the', 'their', 'theirs', 'them', 'themselves', 'then', 'there', 'these', 'they', 'this',
  'those', 'through', 'to', 'too', 'under', 'until', 'up', 'very', 'was', 'we', 'were', 'what', 'when',
  'where', 'which', 'while', 'who', 'whom', 'why', 'will', 'with', 'would', 'you', 'your', 'yours',
  'yourself', 'yourselves',
];

const CHINESE = [
  '的', '了', '和', '与', '及', '或', '是', '在', '也', '就', '都', '而', '着', '之', '其', '把', '被',
  '让', '给', '对', '从', '向', '以', '于', '为', '并', '且', '则', '即', '但', '却', '又', '还', '很',
  '吗', '呢', '吧', '啊', '呀', '哦', '嘛', '么', '得', '地', '这', '那', '这个', '那个', '这些', '那些',
  '这样', '那样', '一个', '一些', '一种', '我', '你', '他', '她', '它', '我们', '你们', '他们', '她们',
  '它们', '自己', '什么', '怎么', '如何', '为什么', '哪', '哪个', '哪些', '因为', '所以', '如果', '虽然',
  '但是', '而且', '或者', '以及', '还是', '就是', '可以', '已经', '没有', '不是', '这里', '那里', '之后',
  '之前', '时候', '等', '等等',
];

export const STOP_WORDS: ReadonlySet<string> = new Set([...ENGLISH, ...CHINESE]);
