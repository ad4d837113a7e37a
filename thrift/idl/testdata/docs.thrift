/**
 * The file's doc comment: it comes before the first header.
 *
 *   An indented line keeps the indentation past the margin.
 */
namespace go rpckit.docs

/** Dropped: a header follows it. */
namespace py rpckit_docs

/**
 * A typedef's doc.
 */
typedef i64 Id

/** One line. */
const i32 ANSWER = 42

/**
   No star margin:
     indentation relative to the least indented line.
 */
enum Mood {
  /** Happy, with trailing blanks.    */
  HAPPY
  SAD /** Taken by the next value, not this one. */
  ANGRY
}

/*
 * An ordinary comment: no doc.
 */
struct Entry {
  /** The key. */
  1: Id id
  // not a doc
  2: string name /** pending until the next field */
  3: optional Mood mood
  /** replaced */
  /** by the newer doc comment */
  4: i32 count
  /***/
  5: i32 silly
}

/**	Tabs	and  *stars*  inside
 *	stay as written.
 */
exception Oops {
  1: string message
}

/** A service. */
service Docs {
  /** A function, then an argument with its own doc. */
  Entry get(
    /** Which entry. */
    1: Id id
  ) throws (
    /** When there is none. */
    1: Oops oops
  )
  /****
   * More stars to start.
   ****/
  void put(1: Entry e)
}
