#include <stdio.h>
#include <histedit.h>

// NB: el_set and history are variadic, which Swift cannot call; these fixed-arity wrappers are
// the only calls authflow makes. stdin/stdout/stderr are named here, not in Swift, where they
// are shared mutable globals that strict concurrency rejects.

typedef char *(*cedit_prompt_fn)(EditLine *);
typedef unsigned char (*cedit_command_fn)(EditLine *, int);

static inline EditLine *cedit_init(const char *program) {
  return el_init(program, stdin, stdout, stderr);
}

static inline int cedit_set_prompt(EditLine *el, cedit_prompt_fn prompt, char marker) {
  return el_set(el, EL_PROMPT_ESC, prompt, marker);
}

static inline int cedit_set_editor(EditLine *el, const char *mode) {
  return el_set(el, EL_EDITOR, mode);
}

typedef int (*cedit_read_fn)(EditLine *, wchar_t *);

static inline int cedit_set_read(EditLine *el, cedit_read_fn read) {
  return el_set(el, EL_GETCFN, read);
}

static inline int cedit_set_signal(EditLine *el, int on) {
  return el_set(el, EL_SIGNAL, on);
}

static inline int cedit_set_client_data(EditLine *el, void *data) {
  return el_set(el, EL_CLIENTDATA, data);
}

static inline void *cedit_client_data(EditLine *el) {
  void *data = NULL;
  el_get(el, EL_CLIENTDATA, &data);
  return data;
}

static inline int cedit_add_function(EditLine *el, const char *name, const char *help,
                                     cedit_command_fn function) {
  return el_set(el, EL_ADDFN, name, help, function);
}

static inline int cedit_bind(EditLine *el, const char *key, const char *function) {
  return el_set(el, EL_BIND, key, function, NULL);
}

static inline int cedit_use_history(EditLine *el, History *h) {
  return el_set(el, EL_HIST, history, h);
}

static inline History *cedit_history_init(int size) {
  History *h = history_init();
  if (h == NULL) return NULL;
  HistEvent event;
  history(h, &event, H_SETSIZE, size);
  history(h, &event, H_SETUNIQUE, 1);
  return h;
}

static inline int cedit_history_enter(History *h, const char *line) {
  HistEvent event;
  return history(h, &event, H_ENTER, line);
}

static inline int cedit_history_load(History *h, const char *path) {
  HistEvent event;
  return history(h, &event, H_LOAD, path);
}

static inline int cedit_history_save(History *h, const char *path) {
  HistEvent event;
  return history(h, &event, H_SAVE, path);
}

