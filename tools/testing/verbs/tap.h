// SPDX-License-Identifier: GPL-2.0-only
// TAP output of the verbs test programs: "ok N - what" / "not ok N - what"
// lines, "# ..." diagnostics and a plan with a summary line that the
// selftests match ("# [name: ]P passed, F failed").
#pragma once

#include <cstdio>
#include <string>
#include <utility>

namespace verbs {

class Tap {
public:
	// @name prefixes the summary line ("# name: P passed, F failed").
	explicit Tap(std::string name = {}) : name_(std::move(name)) {}

	bool check(bool cond, const std::string &desc)
	{
		++n_;
		if (!cond)
			++failed_;
		std::printf("%sok %d - %s\n", cond ? "" : "not ", n_,
			    desc.c_str());
		std::fflush(stdout);
		return cond;
	}

	void diag(const std::string &msg) const
	{
		std::printf("# %s\n", msg.c_str());
		std::fflush(stdout);
	}

	int failed() const { return failed_; }

	// Prints the plan and the summary; the exit status: 1 if any failed.
	int finish() const
	{
		std::printf("1..%d\n# %s%s%d passed, %d failed\n", n_,
			    name_.c_str(), name_.empty() ? "" : ": ",
			    n_ - failed_, failed_);
		return failed_ ? 1 : 0;
	}

private:
	std::string name_;
	int n_ = 0;
	int failed_ = 0;
};

} // namespace verbs
