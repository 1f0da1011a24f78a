/* tag_c.h marks its functions visible; TAGLIB_STATIC drops that so the stubs stay hidden. */
#define TAGLIB_STATIC
#include "shim.h"
#include "piper_library.h"

#define FUNCTIONS(X) X(taglib_set_strings_unicode) X(taglib_file_new) X(taglib_file_new_type) X(taglib_file_free) \
    X(taglib_file_is_valid) X(taglib_file_tag) X(taglib_file_audioproperties) X(taglib_tag_title) \
    X(taglib_tag_artist) X(taglib_tag_album) X(taglib_tag_free_strings) X(taglib_audioproperties_length) \
    X(taglib_tag_track)

PIPER_LIBRARY_DEFINE(taglib, "libtag_c", "libtag_c.so.0", "PIPER_LIBRARY_TAGLIB", "libtagc0");
#define CALL(name) PIPER_LIBRARY_CALL(taglib, name)

const char *piper_taglib_load(void) { return piper_library_load(&taglib); }

PIPER_STUB void taglib_set_strings_unicode(BOOL on) { CALL(taglib_set_strings_unicode)(on); }
PIPER_STUB TagLib_File *taglib_file_new(const char *file) { return CALL(taglib_file_new)(file); }
PIPER_STUB TagLib_File *taglib_file_new_type(const char *file, TagLib_File_Type type) { return CALL(taglib_file_new_type)(file, type); }
PIPER_STUB void taglib_file_free(TagLib_File *f) { CALL(taglib_file_free)(f); }
PIPER_STUB BOOL taglib_file_is_valid(const TagLib_File *f) { return CALL(taglib_file_is_valid)(f); }
PIPER_STUB TagLib_Tag *taglib_file_tag(const TagLib_File *f) { return CALL(taglib_file_tag)(f); }
PIPER_STUB const TagLib_AudioProperties *taglib_file_audioproperties(const TagLib_File *f) { return CALL(taglib_file_audioproperties)(f); }
PIPER_STUB char *taglib_tag_title(const TagLib_Tag *t) { return CALL(taglib_tag_title)(t); }
PIPER_STUB char *taglib_tag_artist(const TagLib_Tag *t) { return CALL(taglib_tag_artist)(t); }
PIPER_STUB char *taglib_tag_album(const TagLib_Tag *t) { return CALL(taglib_tag_album)(t); }
PIPER_STUB void taglib_tag_free_strings(void) { CALL(taglib_tag_free_strings)(); }
PIPER_STUB int taglib_audioproperties_length(const TagLib_AudioProperties *p) { return CALL(taglib_audioproperties_length)(p); }
PIPER_STUB unsigned int taglib_tag_track(const TagLib_Tag *t) { return CALL(taglib_tag_track)(t); }
