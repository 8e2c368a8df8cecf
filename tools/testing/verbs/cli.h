// SPDX-License-Identifier: GPL-2.0-only
// A walk over argv for the verbs test programs that take a word and then
// its value ("-d mrc0 --count 8"): the loop, the "needs a value" refusal
// and the unknown-argument refusal in one place; and the usage message.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace verbs {

// The usage() of a program: "PROG: WHY" first when there is a why, then
// @text, on stderr; exit status 2.
[[noreturn]] inline void refuse_usage(const char *prog, const char *why,
				      const char *text)
{
	if (why)
		std::fprintf(stderr, "%s: %s\n", prog, why);
	std::fputs(text, stderr);
	std::exit(2);
}

class ArgWalker {
public:
	using Usage = void (*)(const char *why); // prints and exits

	ArgWalker(int argc, char **argv, int first, Usage usage)
		: argc_(argc), argv_(argv), i_(first - 1), usage_(usage)
	{
	}

	// Moves to the next word; false after the last.
	bool next()
	{
		if (++i_ >= argc_)
			return false;
		word_ = argv_[i_];
		return true;
	}

	const std::string &word() const { return word_; }
	bool is(const char *w) const { return word_ == w; }

	// The word after the current one, consumed.
	std::string value()
	{
		if (i_ + 1 >= argc_)
			refuse(word_ + " needs a value");
		return argv_[++i_];
	}

	[[noreturn]] void unknown() { refuse("unknown argument " + word_); }

private:
	[[noreturn]] void refuse(const std::string &why)
	{
		usage_(why.c_str());
		std::exit(2); // usage() exits; this keeps the promise if not
	}

	int argc_;
	char **argv_;
	int i_;
	Usage usage_;
	std::string word_;
};

} // namespace verbs
