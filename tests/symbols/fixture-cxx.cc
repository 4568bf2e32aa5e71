// fixture-cxx.cc - C++ names for the demangling test: a namespace, a
// class method and a template instance.
#include <cstdio>

namespace fx {
struct Widget {
	int v;
	__attribute__((noinline)) int spin(int n);
};

int Widget::spin(int n)
{
	for (int i = 0; i < n; i++)
		v += i;
	return v;
}

template <typename T> __attribute__((noinline)) T twice(T x)
{
	return x + x;
}
}

int main()
{
	fx::Widget w{ 1 };
	std::printf("%d %ld\n", w.spin(3), fx::twice<long>(21));
	return 0;
}
