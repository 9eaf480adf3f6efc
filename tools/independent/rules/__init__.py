"""Layer rules: the rule sets of spec/rules/, each written from its document alone."""
