// Hypocorisms: the short and familiar forms a given name is known by ("Ted" for Theodore or
// Edward, "Sasha" for Aleksandr, "Pepe" for José). A customer often gives the form they use,
// a list the formal one, and spelling similarity cannot see that "Bill" is William.
//
// One line per formal name: the formal name (any spelling of its variant class in tables.ts
// works, "Aleksandr" covers Alexander) and its common short forms. A short form matches its
// formal names only, never another short form, and earns less than the same spelling: it is a
// lead for the analyst, not proof.
//
// Sources: compiled for this project from common usage, checked against the reference lists of
// English hypocorisms (Wikipedia, "List of English given names" and "Hypocorism"), Russian and
// Ukrainian diminutives (Wikipedia, "Russian given name", section "Diminutives"), Spanish and
// Portuguese "hipocorísticos" (Real Academia Española, Diccionario panhispánico de dudas,
// "hipocorístico"), and German, French and Italian short forms from the same Wikipedia lists.
// Forms are written as normalised tokens: ASCII, lower case.

export const HYPOCORISMS: ReadonlyArray<readonly [string, readonly string[]]> = [
  // English
  ['abraham', ['abe']], ['albert', ['al', 'bert', 'bertie']], ['alexander', ['alex', 'alec', 'sandy', 'sasha', 'sacha', 'sanya', 'shura']],
  ['alexandra', ['alex', 'sandra', 'sasha']], ['alfred', ['alf', 'alfie', 'fred']], ['andrew', ['andy', 'drew']],
  ['anthony', ['tony']], ['antonio', ['tony', 'toni', 'tonio', 'nino']], ['arthur', ['art', 'artie']],
  ['barbara', ['barb', 'babs']], ['benjamin', ['ben', 'benji', 'benny']], ['bernard', ['bernie', 'bernd']],
  ['catherine', ['cathy', 'kate', 'katie', 'kitty']], ['katherine', ['kathy', 'kate', 'katie', 'kay']],
  ['charles', ['charlie', 'chuck', 'chas']], ['christopher', ['chris', 'kit', 'topher']], ['christine', ['chris', 'chrissy', 'tina']],
  ['daniel', ['dan', 'danny']], ['david', ['dave', 'davy']], ['deborah', ['debbie', 'deb']], ['donald', ['don', 'donnie']],
  ['douglas', ['doug']], ['edward', ['ed', 'eddie', 'ted', 'teddy', 'ned']], ['edwin', ['ed', 'eddie']],
  ['elizabeth', ['liz', 'lizzie', 'beth', 'betty', 'betsy', 'eliza', 'libby', 'elsa', 'lisa']], ['eugene', ['gene']],
  ['francis', ['frank', 'fran']], ['frances', ['fran', 'frankie']], ['frederick', ['fred', 'freddie', 'fritz']],
  ['gabriel', ['gabe']], ['geoffrey', ['geoff']], ['gerald', ['gerry', 'jerry']], ['gregory', ['greg']],
  ['harold', ['harry', 'hal']], ['henry', ['harry', 'hank', 'hal']], ['isaac', ['ike']], ['jacob', ['jake', 'jack']],
  ['james', ['jim', 'jimmy', 'jamie']], ['jeffrey', ['jeff']], ['jennifer', ['jen', 'jenny']], ['john', ['jack', 'johnny']],
  ['jonathan', ['jon', 'jonny']], ['joseph', ['joe', 'joey']], ['joshua', ['josh']], ['kenneth', ['ken', 'kenny']],
  ['lawrence', ['larry']], ['leonard', ['len', 'lenny', 'leo']], ['margaret', ['maggie', 'meg', 'peggy', 'greta', 'rita']],
  ['matthew', ['matt']], ['michael', ['mike', 'mick', 'mickey', 'misha']], ['nathaniel', ['nat', 'nate']],
  ['nicholas', ['nick', 'nicky']], ['patricia', ['pat', 'patty', 'trish']], ['patrick', ['pat', 'paddy']],
  ['peter', ['pete']], ['philip', ['phil']], ['raymond', ['ray']], ['richard', ['rick', 'ricky', 'rich', 'dick']],
  ['robert', ['bob', 'bobby', 'rob', 'robbie', 'bert']], ['ronald', ['ron', 'ronnie']], ['samuel', ['sam', 'sammy']],
  ['stephen', ['steve', 'stevie']], ['steven', ['steve', 'stevie']], ['susan', ['sue', 'susie']], ['terence', ['terry']],
  ['theodore', ['ted', 'teddy', 'theo']], ['thomas', ['tom', 'tommy']], ['timothy', ['tim', 'timmy']],
  ['victoria', ['vicky', 'tori']], ['walter', ['walt', 'wally']], ['william', ['will', 'bill', 'billy', 'willy', 'liam']],
  ['zachary', ['zach', 'zack']],
  // German, French, Italian, Spanish, Portuguese
  ['johannes', ['hans', 'jo']], ['wolfgang', ['wolf']], ['friedrich', ['fritz']], ['heinrich', ['heinz']],
  ['josef', ['sepp', 'beppo']], ['giuseppe', ['beppe', 'peppe', 'pino']], ['giovanni', ['gianni', 'nanni']],
  ['francesco', ['franco', 'cecco']], ['jose', ['pepe', 'chepe']], ['francisco', ['paco', 'pancho', 'quico', 'chico', 'cisco']],
  ['ignacio', ['nacho']], ['guillermo', ['memo']], ['enrique', ['quique']], ['eduardo', ['lalo']], ['alfredo', ['fredo']],
  ['roberto', ['beto']], ['alberto', ['beto']], ['manuel', ['manolo', 'manu']], ['rosario', ['charo']], ['dolores', ['lola']],
  ['concepcion', ['concha', 'conchita']], ['guadalupe', ['lupe', 'lupita']], ['jesus', ['chucho', 'chuy']],
  ['joaquim', ['quim']], ['joao', ['joaozinho']],
  // Russian, Ukrainian, Belarusian (the formal names are keys of variant classes in tables.ts)
  ['vladimir', ['volodya', 'vova', 'volodia']], ['dmitry', ['dima', 'mitya']], ['mikhail', ['misha']],
  ['nikolai', ['kolya', 'kolia']], ['sergei', ['seryozha', 'serezha']], ['aleksei', ['alyosha', 'lyosha']],
  ['yevgeny', ['zhenya']], ['evgeny', ['zhenya']], ['ivan', ['vanya']], ['pyotr', ['petya']], ['pavel', ['pasha']],
  ['yekaterina', ['katya']], ['tatiana', ['tanya']], ['natalia', ['natasha']], ['elena', ['lena']], ['maria', ['masha', 'manya']],
  ['anastasia', ['nastya']], ['anna', ['anya']], ['olga', ['olya']], ['svetlana', ['sveta']], ['lyudmila', ['lyuda', 'mila']],
  ['yuri', ['yura']], ['grigory', ['grisha']], ['konstantin', ['kostya']], ['boris', ['borya']], ['viktor', ['vitya']],
  ['vasily', ['vasya']], ['anatoly', ['tolya']], ['valentin', ['valya']], ['stanislav', ['stas']], ['vyacheslav', ['slava']],
  ['yaroslav', ['slava']], ['andrei', ['andryusha']], ['igor', ['igoryok']], ['oleg', ['olezhka']], ['roman', ['roma']],
];

/** Short form → the formal names it stands for. */
export const SHORT_FORMS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const m = new Map<string, Set<string>>();
  for (const [formal, shorts] of HYPOCORISMS) {
    for (const s of shorts) {
      let set = m.get(s);
      if (!set) m.set(s, (set = new Set()));
      set.add(formal);
    }
  }
  return m;
})();
